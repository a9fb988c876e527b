import { defineConfig } from 'vitest/config';

// One config for every layer: unit (pure, recorded fixtures), integration (rec + fake agents under a
// real pty) and e2e (real agent CLIs against our mock model servers). Tests that spawn `rec` run the
// compiled dist/, so `npm test` builds first.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: pty tests are timing-sensitive under load, so keep file parallelism modest.
    maxWorkers: 2,
    reporters: ['default'],
  },
});

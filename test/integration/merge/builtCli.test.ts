// The built CLI (npx tsc -p tsconfig.json first): several threads give the same output as one,
// and the published JSON Schema matches the zod schema.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOGS } from '../../unit/readers/fixturePaths.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Generous: the machine is shared with other test runs; nothing waits on time here. */
const CLI_TIMEOUT_MS = 120_000;

function rec(args: string[]): string {
  return execFileSync(process.execPath, [`${ROOT}bin/rec.js`, ...args], {
    cwd: ROOT,
    env: { ...process.env, HOME: '/nonexistent-home', REC_DB: '/nonexistent/rec.db' },
    maxBuffer: 64 << 20,
    timeout: CLI_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
}

describe('rec merge / rec stats, built', () => {
  it('two and three threads (the main one and workers) give the same sessions, in the same order, as one', () => {
    const one = rec(['merge', LOGS, '--jobs', '1', '--jsonl']);
    expect(one.split('\n').length).toBeGreaterThan(30);
    expect(rec(['merge', LOGS, '--jobs', '2', '--jsonl'])).toBe(one);
    expect(rec(['merge', LOGS, '--jobs', '3', '--jsonl'])).toBe(one);
    const stats = rec(['stats', LOGS, '--json', '--jobs', '1']);
    expect(rec(['stats', LOGS, '--json', '--jobs', '2'])).toBe(stats);
    expect(rec(['stats', LOGS, '--json', '--jobs', '3'])).toBe(stats);
  }, CLI_TIMEOUT_MS * 6);

  it('docs/merged-session.schema.json is generated from the current zod schema', () => {
    expect(() => execFileSync(process.execPath, [`${ROOT}scripts/gen-schema.mjs`, '--check'], { cwd: ROOT, stdio: 'pipe' })).not.toThrow();
  });
});

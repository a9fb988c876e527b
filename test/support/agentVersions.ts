// The pinned version and the fixture folders of each agent, read from its one version fact (the
// module's verifiedVersions, src/agents/<name>/strings/index.ts). Tests, e2e kits and the fixture
// recorders take versions and paths from here instead of spelling them.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_NAMES, agentModule } from '../../src/agents/registry.js';
import { newestVerified, type VerifiedVersion } from '../../src/agents/verifiedVersions.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every version rec was verified on, oldest first, with its fixtures folder made absolute. */
export function verifiedVersions(agent: string): readonly VerifiedVersion[] {
  return agentModule(agent).verifiedVersions.map((v) => ({ version: v.version, fixtures: join(REPO_ROOT, v.fixtures) }));
}

/** The newest verified version: the devDependency the e2e suites run and the fixture recorders record. */
export function pinnedVersion(agent: string): string {
  return newestVerified(agentModule(agent).verifiedVersions).version;
}

/**
 * The absolute fixtures folder of a verified version (the pinned one by default). A version that is
 * not verified throws: its recordings would no longer be replayed by anything.
 */
export function fixturesDir(agent: string, version: string = pinnedVersion(agent)): string {
  const v = verifiedVersions(agent).find((x) => x.version === version);
  if (!v) throw new Error(`${agent} ${version} is not a verified version (${verifiedVersions(agent).map((x) => x.version).join(', ')})`);
  return v.fixtures;
}

/**
 * The README's version table, line by line, from the one version fact: the README carries exactly
 * these lines (test/unit/agents/verifiedVersions.test.ts; `node scripts/version-table.mjs` prints them).
 */
export function versionTable(): string[] {
  return [
    '| Agent | npm package | Verified on | Pinned for the tests |',
    '|---|---|---|---|',
    ...AGENT_NAMES.map((agent) => {
      const m = agentModule(agent);
      return `| ${m.displayName} | \`${m.packageName}\` | ${m.verifiedVersions.map((v) => v.version).join(', ')} | ${pinnedVersion(agent)} |`;
    }),
  ];
}

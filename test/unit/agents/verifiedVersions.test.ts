// One version fact per agent (the module's verifiedVersions, strings/index.ts): the devDependency pin,
// the lock file, the fixture folders, the strings data and the README's table all follow it, and
// drift fails here rather than in a user's run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_VERSIONS, claudeStringsFor } from '../../../src/agents/claude/strings/index.js';
import { CODEX_VERSIONS } from '../../../src/agents/codex/strings/index.js';
import { COPILOT_VERSIONS } from '../../../src/agents/copilot/strings/index.js';
import { GEMINI_VERSIONS } from '../../../src/agents/gemini/strings/index.js';
import { agentModule } from '../../../src/agents/registry.js';
import { isVerifiedVersion, newestVerified, stringsFor, unverifiedVersionText, type VerifiedStrings } from '../../../src/agents/verifiedVersions.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';
import { pinnedVersion, REPO_ROOT, versionTable } from '../../support/agentVersions.js';

const packageJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; devDependencies?: Record<string, string> }>;
};
const STRINGS: Record<string, readonly VerifiedStrings<{ readonly version: string }>[]> = {
  codex: CODEX_VERSIONS,
  gemini: GEMINI_VERSIONS,
  claude: CLAUDE_VERSIONS,
  copilot: COPILOT_VERSIONS,
};

/** Numeric major.minor.patch comparison (the agents publish plain x.y.z versions). */
function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

describe.each(AGENT_NAMES)('%s: one version fact', (agent) => {
  const m = agentModule(agent);
  const versions = m.verifiedVersions.map((v) => v.version);

  it('the newest verified version is the exact devDependency pin in package.json', () => {
    expect(packageJson.devDependencies[m.packageName]).toBe(pinnedVersion(agent));
  });

  it('package-lock.json pins and installs the same version', () => {
    expect(lock.packages['']?.devDependencies?.[m.packageName]).toBe(pinnedVersion(agent));
    expect(lock.packages[`node_modules/${m.packageName}`]?.version).toBe(pinnedVersion(agent));
  });

  it('is listed oldest first, each version once, in plain x.y.z', () => {
    for (const v of versions) expect(v).toMatch(/^\d+\.\d+\.\d+$/);
    expect([...versions].sort(compareVersions)).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it("each version's fixtures are its own folder, test/fixtures/<agent>/<version>, with its recordings", () => {
    for (const v of m.verifiedVersions) {
      expect(v.fixtures).toBe(`test/fixtures/${agent}/${v.version}`);
      expect(existsSync(join(REPO_ROOT, v.fixtures, 'recorded'))).toBe(true);
    }
  });

  it('the module names the same list as the strings data, and each entry carries its own strings', () => {
    expect(m.verifiedVersions).toBe(STRINGS[agent]);
    for (const v of STRINGS[agent]) expect(v.strings.version).toBe(v.version);
  });
});

describe('versions rec was not verified on', () => {
  it('are read with the newest verified texts; a verified one with its own', () => {
    const newest = newestVerified(CLAUDE_VERSIONS);
    expect(claudeStringsFor('9.9.9')).toBe(newest.strings);
    expect(claudeStringsFor(undefined)).toBe(newest.strings);
    for (const v of CLAUDE_VERSIONS) expect(claudeStringsFor(v.version)).toBe(v.strings);
  });

  it('several versions can be verified at once; a prefix of one is not enough', () => {
    const list = [
      { version: '1.2.3', fixtures: 'a', strings: 'old' },
      { version: '1.2.5', fixtures: 'b', strings: 'new' },
    ];
    expect(isVerifiedVersion(list, '1.2.3')).toBe(true);
    expect(isVerifiedVersion(list, '1.2.5')).toBe(true);
    expect(isVerifiedVersion(list, '1.2.4')).toBe(false);
    expect(isVerifiedVersion(list, '1.2.')).toBe(false);
    expect(stringsFor(list, '1.2.3')).toBe('old');
    expect(stringsFor(list, '1.2.4')).toBe('new');
    expect(unverifiedVersionText('codex', '1.2.4', list)).toBe('codex 1.2.4 is not a version rec was verified on (1.2.3, 1.2.5)');
  });

  it('an empty list is refused rather than read as "everything is the newest"', () => {
    expect(() => newestVerified([])).toThrow(/at least one verified version/);
  });
});

describe("the README's version table", () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const [header] = versionTable();
  it('carries exactly the lines versionTable() makes (node scripts/version-table.mjs)', () => {
    const lines = readme.split('\n');
    const start = lines.indexOf(header!);
    expect(start, 'the README has no version table').toBeGreaterThanOrEqual(0);
    expect(lines.slice(start, start + versionTable().length)).toEqual(versionTable());
  });

  it('names every agent with its package and every verified version', () => {
    const table = versionTable().join('\n');
    for (const agent of AGENT_NAMES) {
      expect(table).toContain(`\`${agentModule(agent).packageName}\``);
      for (const v of agentModule(agent).verifiedVersions) expect(table).toContain(v.version);
    }
  });
});

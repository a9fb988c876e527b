// One lookup of the agent's binary (src/commands/agentBinary.ts) feeds the start, the run row and the
// version: named by --agent-bin, by $REC_<AGENT>_BIN or found on PATH, an agent installed as its npm
// package is recorded with the package's version (witness `package`) before it draws anything; one
// that is not (a wrapper script) gets its version from the session file, or, for Gemini, whose chat
// file names none, from its banner, and the run row says which witness told it.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_NAMES, agentModule } from '../../../src/agents/registry.js';
import { isVerifiedVersion } from '../../../src/agents/verifiedVersions.js';
import { createRecSandbox, REPO_ROOT, type RecSandbox } from '../../support/rec.js';
import { readRuns, waitForRows } from '../../support/sidecarRows.js';

const FAKES = join(REPO_ROOT, 'test', 'fakes');
/** The version each fake draws and writes: the package laid out around it says the same. */
const FAKE_VERSION: Record<string, string> = { codex: '0.169.0', gemini: '0.61.0', claude: '2.1.328', copilot: '1.0.102' };

let sandbox: RecSandbox;
beforeEach(() => {
  sandbox = createRecSandbox();
  sandbox.env.CODEX_HOME = join(sandbox.dir, 'codex-home');
});
afterEach(() => sandbox.dispose());

/**
 * The fake laid out as `npm install -g` lays out the agent's package: <prefix>/lib/node_modules/<pkg>
 * with its package.json and bin script, and <prefix>/bin/<name> a link to that script.
 */
function installFakePackage(agent: string): { prefixBin: string; link: string } {
  const m = agentModule(agent);
  const prefix = join(sandbox.dir, 'prefix');
  const pkg = join(prefix, 'lib', 'node_modules', ...m.packageName.split('/'));
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: m.packageName, version: FAKE_VERSION[agent] }));
  const script = join(pkg, 'bin', `${agent}.js`);
  writeFileSync(script, `#!/bin/sh\nexec "\${FAKE_NODE:-node}" ${JSON.stringify(join(FAKES, `fake-${agent}.mjs`))} "$@"\n`);
  chmodSync(script, 0o755);
  const prefixBin = join(prefix, 'bin');
  mkdirSync(prefixBin, { recursive: true });
  const link = join(prefixBin, m.binName);
  symlinkSync(script, link);
  return { prefixBin, link };
}

/** What each fake draws once it is ready for keys. */
const READY: Record<string, string> = { codex: 'Ask Codex to do anything', gemini: 'Gemini CLI v', claude: 'Claude Code v', copilot: 'Copilot v' };

/** Starts the agent idle under rec the given way and quits it once rec has written the run row. */
async function runIdle(agent: string, how: 'agent-bin' | 'env' | 'PATH'): Promise<void> {
  const { prefixBin, link } = installFakePackage(agent);
  const m = agentModule(agent);
  const env = how === 'env' ? { [m.binEnvVar]: link } : how === 'PATH' ? { PATH: `${prefixBin}:${process.env.PATH}` } : {};
  const args = how === 'agent-bin' ? ['--agent-bin', link, agent] : [agent];
  const p = sandbox.spawnRec([...args, '--scenario', 'idle'], { cols: 120, rows: 40, env });
  await p.expectScreen(READY[agent]);
  await waitForRows(sandbox.dbPath, 'select id from runs', (r) => r.length === 1);
  if (agent === 'claude') {
    p.sendControl('c');
    p.sendControl('c');
  } else p.sendLine('/quit');
  expect((await p.expectExit()).exitCode).toBe(0);
}

it('has a fake, its version and its ready text for every registry agent', () => {
  expect(Object.keys(FAKE_VERSION).sort()).toEqual([...AGENT_NAMES].sort());
  expect(Object.keys(READY).sort()).toEqual([...AGENT_NAMES].sort());
});

describe.each([...AGENT_NAMES])('rec %s: the version of the binary rec started', (agent) => {
  it.each(['agent-bin', 'env', 'PATH'] as const)('named by %s: the package version, witness package', async (how) => {
    await runIdle(agent, how);
    expect(readRuns(sandbox.dbPath)).toEqual([
      expect.objectContaining({
        agent,
        agent_version: FAKE_VERSION[agent],
        agent_version_verified: isVerifiedVersion(agentModule(agent).verifiedVersions, FAKE_VERSION[agent]),
        agent_version_source: 'package',
      }),
    ]);
  }, 30_000);
});

describe('without a package above the binary (a wrapper script on PATH)', () => {
  beforeEach(() => {
    sandbox.env.PATH = `${join(FAKES, 'bin')}:${process.env.PATH}`;
  });

  it('rec codex: the session file names the version (witness session_file)', async () => {
    const p = sandbox.spawnRec(['codex', '--scenario', 'shell'], { cols: 120, rows: 40 });
    await p.expectScreen('Press enter to confirm or esc to cancel');
    await waitForRows(sandbox.dbPath, 'select agent_version from runs', (r) => r[0]?.agent_version !== null && r[0]?.agent_version !== undefined);
    p.sendKey('esc');
    await p.expectScreen('✗ You canceled the request to run');
    p.sendLine('/quit');
    await p.expectExit();
    expect(readRuns(sandbox.dbPath)).toEqual([expect.objectContaining({ agent_version: '0.169.0', agent_version_source: 'session_file' })]);
  }, 30_000);

  it('rec gemini: the banner names the version (witness banner)', async () => {
    const p = sandbox.spawnRec(['gemini', '--scenario', 'idle'], { cols: 120, rows: 40 });
    await p.expectScreen('Gemini CLI v0.61.0');
    await waitForRows(sandbox.dbPath, 'select agent_version from runs', (r) => r[0]?.agent_version === '0.61.0');
    p.sendLine('/quit');
    await p.expectExit();
    expect(readRuns(sandbox.dbPath)).toEqual([expect.objectContaining({ agent_version: '0.61.0', agent_version_verified: true, agent_version_source: 'banner' })]);
  }, 30_000);
});

// `rec demo claude` on the REAL pinned Claude Code, driven as a newcomer would: approve the harmless
// command with 1, refuse the file write with a reason typed after Tab on No, approve the long
// command and interrupt it with Esc, quit; then what rec prints after the exit (the events, then
// merge's decisions and fates). rec demo builds its own isolated world and mock model: the test only
// gives it a TMPDIR of its own, so that whatever the demo leaves behind on a failure can be found.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KEY, SCREEN } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { CLAUDE_DEMO_COUNTER } from '../../../src/agents/claude/bench/demo.js';
import { settle } from '../../../src/lab/driver.js';
import { descendantPids, killPids } from '../../../src/lab/processTree.js';
import { spawn, type Spawned } from '../../../src/lab/spawn.js';
import { AGENT_VERSION } from '../../support/claude/env.js';
import { agentBin } from '../../support/agentBin.js';
import { tableAfter } from '../../support/demoReport.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { assertBuilt, REC_BIN } from '../../support/recBin.js';

const TEST_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;
const REC_EXIT_TIMEOUT_MS = 30_000;

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The wrapper package's own binary, whose package.json gives the version the demo seeds Claude Code's first-run keys with. */
const PACKAGE_BIN = agentBin('claude').override ?? join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe');

let rec: Spawned | undefined;
let tmp: string | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  if (rec) {
    await killPids([...descendantPids([rec.pid]), rec.pid]);
    rec.dispose();
  }
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  rec = undefined;
  tmp = undefined;
});

/** Waits for the permission prompt that shows `what`, then presses the keys a person's reaction time later. */
async function answer(r: Spawned, what: RegExp, ...keys: string[]): Promise<void> {
  await r.expectScreen(new RegExp(`${what.source}[\\s\\S]*Esc to cancel · Tab to amend`), STEP_TIMEOUT_MS);
  await settle();
  for (const k of keys) r.send(k);
}

describe(`rec demo claude on the real Claude Code ${AGENT_VERSION}`, () => {
  it('records an approval, a refusal with its key and reason, an interruption, and prints them merged', async () => {
    noteNetworkIsolation();
    tmp = mkdtempSync(join(tmpdir(), 'rec-demo-test-'));
    rec = spawn(process.execPath, [REC_BIN, 'demo', 'claude', '--agent-bin', PACKAGE_BIN], {
      cols: 80,
      rows: 50,
      cwd: tmp,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, TMPDIR: tmp, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
      timeoutMs: STEP_TIMEOUT_MS,
    });
    const r = rec;
    await r.expectScreen(/Print a greeting/, START_TIMEOUT_MS);
    await answer(r, /Print a greeting/, '1');

    // The write: down to "3. No", Tab, a reason, Enter (Claude Code goes on to the next call).
    await answer(r, /Create file[\s\S]*demo-notes\.txt/, KEY.down, KEY.down);
    await r.expectScreen(/❯ 3\. No\s*$/m);
    await settle();
    r.send(KEY.tab);
    await r.expectScreen(/❯ 3\. No, and tell Claude what to do differently/);
    r.send('not in my repo');
    await r.expectScreen(/❯ 3\. No, not in my repo/);
    r.send(KEY.enter);

    await answer(r, /Count to 60/, '1');
    await r.expectScreen(SCREEN.running);
    await settle();
    r.send(KEY.esc);
    await r.expectScreen(SCREEN.interrupted);

    await r.expectScreen(SCREEN.idle);
    await settle();
    r.send(KEY.ctrlC);
    await r.expectScreen(SCREEN.pressAgain);
    r.send(KEY.ctrlC);
    const exit = await r.expectExit(REC_EXIT_TIMEOUT_MS);
    expect(exit.exitCode).toBe(0);

    const out = r.output.replace(/\r/g, '');
    const report = out.slice(out.lastIndexOf('rec recorded '));
    if (process.env.REC_E2E_DEBUG) console.log(report);
    const decisions = tableAfter(report, 'The merged session');
    expect(decisions).toEqual([
      ['approval', 'digit', 'ran', expect.stringMatching(/^echo hello/), '-'],
      // The write's absolute path, cut at 80 columns.
      ['rejection', 'tab', 'rejected', expect.stringMatching(/^edit \//), 'not in my repo'],
      ['approval', 'digit', 'interrupted', `node ${CLAUDE_DEMO_COUNTER.file}`, '-'],
      ['interruption', 'esc', 'interrupted', `node ${CLAUDE_DEMO_COUNTER.file}`, '-'],
    ]);
    const events = tableAfter(report, 'rec recorded ');
    expect(events.map((e) => e.slice(0, 3))).toEqual([
      ['prompt', 'command', '-'],
      ['approval', 'command', 'digit'],
      ['prompt', 'edit', '-'],
      ['rejection', 'edit', 'tab'],
      ['prompt', 'command', '-'],
      ['approval', 'command', 'digit'],
      ['interruption', 'tool', 'esc'],
    ]);
    for (const l of report.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
    // The demo cleaned up after itself: its world is gone.
    expect(readdirSync(tmp).filter((n) => n.startsWith('rec-demo-claude-'))).toEqual([]);
  }, TEST_TIMEOUT_MS);
});

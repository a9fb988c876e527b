// `rec demo` on the REAL pinned Codex, driven as a newcomer would: approve the harmless command,
// refuse the file edit with Esc and give a reason, approve the long command and interrupt it with
// Esc, quit; then what rec prints after the exit (the events, then merge's decisions and fates).
// rec demo builds its own isolated world and mock model: the test only gives it a TMPDIR of its
// own, so that whatever the demo leaves behind on a failure can be found and stopped by pid.
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EDIT_FILE } from '../../../src/lab/mock/demoScenario.js';
import { KEY, SCREEN } from '../../../src/agents/codex/bench/recordedScenarios.js';
import { settle } from '../../../src/lab/driver.js';
import { descendantPids, killPids } from '../../../src/lab/processTree.js';
import { EOF, TIMEOUT, spawn, type Spawned } from '../../../src/lab/spawn.js';
import { assertBuilt, REC_BIN } from '../../support/recBin.js';
import { tableAfter } from '../../support/demoReport.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { AGENT_BIN, AGENT_VERSION } from '../../support/codex/env.js';

const TEST_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;
const QUIT_WAIT_MS = 2_000;
const REC_EXIT_TIMEOUT_MS = 30_000;

let rec: Spawned | undefined;
let tmp: string | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  if (rec) {
    const daemons = tmp ? daemonPids(tmp) : [];
    await killPids([rec.pid, ...descendantPids([rec.pid, ...daemons]), ...daemons]);
    rec.dispose();
  }
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  rec = undefined;
  tmp = undefined;
});

/** Codex daemons the demo started under our TMPDIR and did not stop (only after a failure). */
function daemonPids(dir: string): number[] {
  const pids: number[] = [];
  for (const world of existsSync(dir) ? readdirSync(dir) : []) {
    const daemonDir = join(dir, world, 'home', '.codex', 'app-server-daemon');
    if (!existsSync(daemonDir)) continue;
    for (const f of readdirSync(daemonDir).filter((n) => n.endsWith('.pid'))) {
      const pid = Number(/\d+/.exec(readFileSync(join(daemonDir, f), 'utf8'))?.[0]);
      if (pid > 0) pids.push(pid);
    }
  }
  return pids;
}

/** Waits for the approval prompt whose Reason line says `reason`. */
async function promptFor(r: Spawned, reason: RegExp): Promise<void> {
  await r.expectScreen(new RegExp(`${reason.source}[\\s\\S]*${SCREEN.promptFooter.source}`), STEP_TIMEOUT_MS);
}

/** A deciding key, a person's reaction time after the screen that asks (Codex drops keys sent at once). */
async function settled(r: Spawned, key: string): Promise<void> {
  await settle();
  r.send(key);
}

/** Types text into Codex's composer, waits until it shows (not taken for a paste), then Enter. */
async function line(r: Spawned, text: string): Promise<void> {
  r.send(text);
  await r.expectScreen(`› ${text}`, STEP_TIMEOUT_MS);
  r.sendKey('enter');
}

describe(`rec demo on the real Codex ${AGENT_VERSION}`, () => {
  it('records an approval, a refusal with its key and reason, an interruption, and prints them merged', async () => {
    noteNetworkIsolation();
    tmp = mkdtempSync(join(tmpdir(), 'rec-demo-test-'));
    rec = spawn(process.execPath, [REC_BIN, 'demo', '--agent-bin', AGENT_BIN], {
      cols: 80,
      rows: 60,
      cwd: tmp,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, TMPDIR: tmp, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
      timeoutMs: STEP_TIMEOUT_MS,
    });
    const r = rec;
    await r.expectScreen(/Print a greeting/, START_TIMEOUT_MS);
    await promptFor(r, /Print a greeting/);
    await settled(r, 'y');
    await r.expectScreen(SCREEN.approvedOnce);

    await r.expectScreen(SCREEN.editsPrompt);
    await settled(r, KEY.esc);
    await r.expectScreen(SCREEN.interrupted);
    await line(r, 'not in my repo');

    await promptFor(r, /Count to 60/);
    await settled(r, 'y');
    await r.expectScreen(SCREEN.working);
    await r.expectScreen(/tick 1/);
    await settled(r, KEY.esc);
    await r.expectScreen(/Conversation interrupted[\s\S]*Conversation interrupted/);

    for (let attempt = 0; attempt < 3 && !r.exitStatus; attempt += 1) {
      r.sendKey('ctrl-c');
      if ((await r.expect([EOF, TIMEOUT], QUIT_WAIT_MS)) === 0) break;
    }
    const exit = await r.expectExit(REC_EXIT_TIMEOUT_MS);
    expect(exit.exitCode).toBe(0);

    const out = r.output.replace(/\r/g, '');
    const report = out.slice(out.lastIndexOf('rec recorded '));
    const decisions = tableAfter(report, 'The merged session');
    expect(decisions).toEqual([
      ['approval', 'letter', 'ran', expect.stringMatching(/^echo hello/), '-'],
      ['rejection', 'esc', 'rejected', `edit ${DEMO_EDIT_FILE}`, 'not in my repo'],
      ['approval', 'letter', 'interrupted', expect.stringMatching(/^for i in/), '-'],
      ['interruption', 'esc', 'interrupted', expect.stringMatching(/^for i in/), '-'],
    ]);
    const events = tableAfter(report, 'rec recorded ');
    expect(events[3]).toEqual(['rejection', 'edit', 'esc', `edit ${DEMO_EDIT_FILE}`, 'not in my repo']);
    expect(events.map((e) => e.slice(0, 3))).toEqual([
      ['prompt', 'command', '-'],
      ['approval', 'command', 'letter'],
      ['prompt', 'edit', '-'],
      ['rejection', 'edit', 'esc'],
      ['prompt', 'command', '-'],
      ['approval', 'command', 'letter'],
      ['interruption', 'tool', 'esc'],
    ]);
    for (const l of report.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
    // The demo cleaned up after itself: its world (and Codex's daemon) are gone.
    expect(readdirSync(tmp).filter((n) => n.startsWith('rec-codex-e2e-'))).toEqual([]);
  }, TEST_TIMEOUT_MS);
});

// `rec demo gemini` on the REAL pinned Gemini CLI, driven as a newcomer would: approve the harmless
// command, refuse the file write with Esc and give a reason, approve the long command and interrupt
// it with Esc, quit; then what rec prints after the exit (the events, then merge's decisions and
// fates). rec demo builds its own isolated world and mock model: the test only gives it a TMPDIR of
// its own, so that whatever the demo leaves behind on a failure can be found and stopped by pid.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { settle, type Driver } from '../../../src/lab/driver.js';
import { GEMINI_DEMO_COMMAND, GEMINI_DEMO_LONG_COMMAND } from '../../../src/agents/gemini/bench/demo.js';
import { KEY, quitGemini, SCREEN } from '../../../src/agents/gemini/bench/recordedScenarios.js';
import { DEMO_EDIT_FILE } from '../../../src/lab/mock/demoScenario.js';
import { descendantPids, killPids } from '../../../src/lab/processTree.js';
import { EOF, TIMEOUT, spawn, type Spawned } from '../../../src/lab/spawn.js';
import { AGENT_BIN, AGENT_VERSION } from '../../support/gemini/env.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { assertBuilt, REC_BIN } from '../../support/recBin.js';
import { tableAfter } from '../../support/demoReport.js';

const TEST_TIMEOUT_MS = 300_000;
/** Gemini draws its first dialog after 10-20 s on two loaded cores (it relaunches itself once). */
const START_TIMEOUT_MS = 120_000;
const STEP_TIMEOUT_MS = 45_000;
const REC_EXIT_TIMEOUT_MS = 60_000;

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

/** A deciding key, a person's reaction time after the screen that asks (agents drop keys sent at once). */
async function decide(r: Spawned, key: string): Promise<void> {
  await settle();
  r.send(key);
}

/** Types text into Gemini's composer, waits until it shows, then Enter a moment later (Gemini takes a quick Enter for a newline). */
async function typeLine(r: Spawned, text: string): Promise<void> {
  r.send(text);
  await r.expectScreen(text);
  await settle();
  r.sendKey('enter');
}

/** Enough of a Driver for quitGemini. */
function driverOf(r: Spawned): Driver {
  return {
    waitScreen: async (re, _label, timeoutMs) => void (await r.expectScreen(re, timeoutMs)),
    send: (data) => r.send(data),
    line: (text) => typeLine(r, text),
    resize: (cols, rows) => r.resize(cols, rows),
    snap: () => undefined,
    screen: () => r.screen(),
  };
}

const shellDialogFor = (command: string) => new RegExp(`${command.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*No, suggest changes \\(esc\\)`);

describe(`rec demo on the real Gemini CLI ${AGENT_VERSION}`, () => {
  it('records an approval, a refusal with its key and reason, an interruption, and prints them merged', async () => {
    noteNetworkIsolation();
    tmp = mkdtempSync(join(tmpdir(), 'rec-demo-test-'));
    rec = spawn(process.execPath, [REC_BIN, 'demo', 'gemini', '--agent-bin', AGENT_BIN], {
      cols: 80,
      rows: 60,
      cwd: tmp,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, TMPDIR: tmp, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
      timeoutMs: STEP_TIMEOUT_MS,
    });
    const r = rec;
    await r.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
    await typeLine(r, 'show me');
    await r.expectScreen(shellDialogFor(GEMINI_DEMO_COMMAND));
    await decide(r, KEY.enter);

    await r.expectScreen(SCREEN.writeDialog(DEMO_EDIT_FILE));
    await decide(r, KEY.esc);
    await r.expectScreen(SCREEN.cancelled);
    await typeLine(r, 'not in my repo');

    await r.expectScreen(shellDialogFor(GEMINI_DEMO_LONG_COMMAND));
    await decide(r, KEY.enter);
    await r.expectScreen(SCREEN.running);
    await decide(r, KEY.esc);
    await r.expectScreen(/Request cancelled\.[\s\S]*Request cancelled\./);

    // Gemini's own quit (a Ctrl+C this soon after the Esc could still land on the cut command).
    // Gemini has exited once its goodbye shows (rec then merges and prints before it exits itself).
    await quitGemini(driverOf(r), async (ms) => (await r.expect([/Agent powering down/, EOF, TIMEOUT], ms)) !== 2);
    const exit = await r.expectExit(REC_EXIT_TIMEOUT_MS);

    const out = r.output.replace(/\r/g, '');
    const report = out.slice(out.lastIndexOf('rec recorded '));
    if (process.env.REC_E2E_DEBUG) console.log(report);
    expect(exit.exitCode).toBe(0);
    const decisions = tableAfter(report, 'The merged session');
    expect(decisions).toEqual([
      // Cells are cut to fit 80 columns.
      ['approval', 'enter', 'ran', expect.stringMatching(/^touch hello-from-the-rec/), '-'],
      ['rejection', 'esc', 'rejected', expect.stringContaining(DEMO_EDIT_FILE), 'not in my repo'],
      ['approval', 'enter', 'interrupted', expect.stringMatching(/^sleep 60; touch demo-wait/), '-'],
      ['interruption', 'esc', 'interrupted', expect.stringMatching(/^sleep 60; touch demo-wait/), '-'],
    ]);
    const events = tableAfter(report, 'rec recorded ');
    expect(events.map((e) => e.slice(0, 3))).toEqual([
      ['prompt', 'command', '-'],
      ['approval', 'command', 'enter'],
      ['prompt', 'edit', '-'],
      ['rejection', 'edit', 'esc'],
      ['prompt', 'command', '-'],
      ['approval', 'command', 'enter'],
      ['interruption', 'tool', 'esc'],
    ]);
    expect(events[3]!.at(-1)).toBe('not in my repo');
    for (const l of report.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
    // The demo cleaned up after itself: its world is gone.
    expect(readdirSync(tmp).filter((n) => n.startsWith('rec-demo-gemini-'))).toEqual([]);
  }, TEST_TIMEOUT_MS);
});

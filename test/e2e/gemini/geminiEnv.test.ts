// The Gemini e2e kit itself, on plain gemini (not under rec): the isolated world reaches a dialog
// against the mock with the per-run key, nothing tries to leave 127.0.0.1, the session file is
// copied live before Gemini deletes it, and dispose() leaves no process and no files behind.
import { existsSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../src/lab/pollUntil.js';
import { descendantPids, isAlive } from '../../../src/lab/processTree.js';
import { AGENT_VERSION, E2E_DIR_PREFIX } from '../../support/gemini/env.js';
import { NATIVE } from '../../support/gemini/expectedRows.js';
import { KEY, promptFor, SCREEN } from '../../../src/agents/gemini/bench/recordedScenarios.js';
import { startRec, STEP_TIMEOUT_MS, waitReady, type RecSession } from '../../support/gemini/recSession.js';

const TEST_TIMEOUT_MS = 240_000;

let session: RecSession | undefined;

afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

describe(`the gemini e2e kit on plain Gemini CLI ${AGENT_VERSION}`, () => {
  it('reaches the shell dialog against the mock, with no escape attempt; the deleted session file survives in the live copy', async () => {
    const s = (session = await startRec({ bare: true }));
    await waitReady(s);
    await s.driver.line(promptFor('shell'));
    await s.driver.waitScreen(SCREEN.shellDialog);
    expect(s.server.requests.map((r) => [r.kind, r.scenario, r.step])).toEqual([['turn', 'shell', 0]]);
    expect(s.server.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    // The window title turns to "Action Required" with the dialog (its own write, a moment after or
    // before the frame): the witness the recorder may use.
    await waitUntil(() => (s.proc.output.includes('Action Required') ? true : undefined), { what: 'the "Action Required" title', timeoutMs: STEP_TIMEOUT_MS });
    s.driver.send(KEY.esc);
    await s.driver.waitScreen(SCREEN.cancelled);
    const [call] = await s.snapshots.waitForToolCalls(1, STEP_TIMEOUT_MS);
    expect(call).toMatchObject({ name: 'run_shell_command', status: 'cancelled', error: NATIVE.denied });
    expect(await s.quit()).toEqual({ exitCode: 0, signal: undefined });
    // A deny-only session: Gemini deleted its file at exit (README G2); the live copy has it.
    expect(s.env.sessionFiles()).toEqual([]);
    expect(s.snapshots.only().text).toContain(call!.callId);
    expect(s.server.requests.filter((r) => r.kind !== 'turn')).toEqual([]);
  }, TEST_TIMEOUT_MS);

  it('dispose() stops Gemini (and its relaunched child) by pid and removes the temp dir', async () => {
    const s = (session = await startRec({ bare: true }));
    await waitReady(s);
    // Gemini relaunches itself in a child node with a larger heap: at least two processes.
    const pids = [s.proc.pid, ...descendantPids([s.proc.pid])];
    expect(pids.length).toBeGreaterThanOrEqual(2);
    const base = s.env.baseDir;
    await s.dispose();
    session = undefined;
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(base)).toBe(false);
  }, TEST_TIMEOUT_MS);

  it('keeps its temp files under the base dir: nothing of this run is left in the system temp dir', async () => {
    const before = new Set(readdirSync('/tmp'));
    const s = (session = await startRec({ bare: true }));
    await waitReady(s);
    await s.driver.line(promptFor('shell'));
    await s.driver.waitScreen(SCREEN.shellDialog);
    s.driver.send(KEY.enter);
    await s.driver.waitScreen(SCREEN.final);
    await s.quit();
    const base = s.env.baseDir;
    await s.dispose();
    session = undefined;
    // Other programs (and the other e2e files' worlds, rec-gemini-e2e-*, running meanwhile) may add
    // their own; none of what is left may be Gemini's.
    const added = readdirSync('/tmp').filter((f) => !before.has(f) && `/tmp/${f}` !== base && !f.startsWith(E2E_DIR_PREFIX));
    expect(added.filter((f) => /gemini/i.test(f))).toEqual([]);
  }, TEST_TIMEOUT_MS);
});

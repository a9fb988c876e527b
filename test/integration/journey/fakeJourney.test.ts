// The user's whole journey, on the fakes, in the default test run: `rec <agent>` records some
// decisions, then `rec runs`, `rec events`, `rec merge --run`, `rec stats --run` and `rec prune
// --run`, each a child process as a user runs it. The same decisions are asserted at every step.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecEvent } from '../../../src/core/events.js';
import type { Run } from '../../../src/store/run.js';
import type { Spawned } from '../../../src/lab/spawn.js';
import { expectJourney } from '../../support/journey.js';
import { createRecSandbox, REC_BIN, REPO_ROOT, type RecSandbox } from '../../support/rec.js';
import { readEventRows, waitForRows } from '../../support/sidecarRows.js';

const FAKES_BIN = join(REPO_ROOT, 'test', 'fakes', 'bin');

let sandbox: RecSandbox;
beforeEach(() => {
  sandbox = createRecSandbox({ PATH: `${FAKES_BIN}:${process.env.PATH}` });
  sandbox.env.CODEX_HOME = join(sandbox.dir, 'codex-home');
});
afterEach(() => sandbox.dispose());

/** What a decision is, as every step must show it. */
type Decision = Pick<RecEvent, 'type' | 'kind' | 'trigger' | 'reason'>;
const view = (e: RecEvent): Decision => ({ type: e.type, kind: e.kind, trigger: e.trigger, reason: e.reason });

function rec(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(REC_BIN, [...args, '--db', sandbox.dbPath], { env: sandbox.env, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const jsonLines = <T>(text: string): T[] => text.trimEnd().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as T);

/** Waits until the sidecar holds these decisions (the recorder binds the call from the file). */
async function decided(n: number): Promise<void> {
  await waitForRows(sandbox.dbPath, "select type, trigger, call_id from events where type <> 'prompt'", (r) => r.length === n && r.every((e) => e.call_id !== null));
}

/**
 * Waits until the recorder has seen the n-th prompt, as a person sees a whole prompt before
 * answering it (a key sent between two chunks of one frame is judged on the half drawn before it).
 */
async function prompted(n: number): Promise<void> {
  await waitForRows(sandbox.dbPath, "select id from events where type = 'prompt'", (r) => r.length === n);
}

async function recordCodex(): Promise<Spawned> {
  const p = sandbox.spawnRec(['codex', '--scenario', 'parallel'], { cols: 120, rows: 40 });
  await p.expectScreen('Reason: Parallel call one');
  await prompted(1);
  p.send('y');
  await p.expectScreen('Reason: Parallel call two');
  await prompted(2);
  p.sendKey('esc');
  await p.expectScreen('■ Conversation interrupted');
  await decided(3);
  p.sendLine('/quit');
  return p;
}

async function recordClaude(): Promise<Spawned> {
  const p = sandbox.spawnRec(['claude', '--scenario', 'shell'], { cols: 120, rows: 45 });
  await p.expectScreen('Do you want to proceed?');
  await prompted(1);
  for (const k of ['down', 'down', 'down'] as const) p.sendKey(k);
  await p.expectScreen('❯ 4. No');
  p.sendKey('tab');
  await p.expectScreen('No, and tell Claude what to do differently');
  p.send('use printf');
  await p.expectScreen('No, use printf');
  p.sendKey('enter');
  await decided(1);
  // Ctrl+C while the turn still runs cuts the turn instead: quit from the idle composer, as a person would.
  await p.expectScreen('MOCK FINAL');
  await p.expectScreen('? for shortcuts');
  p.sendControl('c');
  await p.expectScreen('Press Ctrl-C again to exit');
  p.sendControl('c');
  return p;
}

async function recordGemini(): Promise<Spawned> {
  const p = sandbox.spawnRec(['gemini', '--scenario', 'shell'], { cols: 120, rows: 45 });
  await p.expectScreen('Allow execution of [Shell]?');
  await prompted(1);
  p.sendKey('esc');
  await p.expectScreen('Request cancelled.');
  await decided(1);
  p.sendLine('/quit');
  return p;
}

describe.each([
  {
    agent: 'codex',
    version: '0.169.0',
    record: recordCodex,
    expected: [
      { type: 'approval', kind: 'command', trigger: 'letter', reason: null },
      { type: 'rejection', kind: 'command', trigger: 'esc', reason: null },
      { type: 'skipped', kind: 'command', trigger: null, reason: null },
    ],
  },
  // fake-claude writes the version of the recording it was made from into its transcript
  { agent: 'claude', version: '2.1.328', record: recordClaude, expected: [{ type: 'rejection', kind: 'command', trigger: 'tab', reason: 'use printf' }] },
  { agent: 'gemini', version: '0.61.0', record: recordGemini, expected: [{ type: 'rejection', kind: 'command', trigger: 'esc', reason: null }] },
] as const)('the journey of rec $agent (fake)', ({ agent, version, record, expected }) => {
  it('record, then runs, events, merge --run, stats --run and prune --run all show the same decisions', async () => {
    const p = await record();
    expect((await p.expectExit()).exitCode).toBe(0);
    const decisions = readEventRows(sandbox.dbPath).filter((e) => e.type !== 'prompt');
    expect(decisions.map(view)).toEqual(expected);

    const runs = rec('runs', '--json');
    expect(runs.status, runs.stderr).toBe(0);
    const [run, ...others] = jsonLines<Run>(runs.stdout);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ agent, agent_version: version, exit_code: 0 });

    const events = rec('events', '--run', run!.id.slice(0, 8), '--json');
    expect(events.status, events.stderr).toBe(0);
    expect(jsonLines<RecEvent>(events.stdout).filter((e) => e.type !== 'prompt')).toEqual(decisions);

    const journey = await expectJourney({ dbPath: sandbox.dbPath, runId: run!.id, env: sandbox.env });
    expect(journey.decisions).toEqual(decisions);

    const pruned = rec('prune', '--run', run!.id.slice(0, 8));
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(run!.id.slice(0, 8));
    expect(rec('runs', '--json').stdout).toBe('');
    expect(rec('events', '--json').stdout).toBe('');
  }, 60_000);
});

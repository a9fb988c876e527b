// Recorded sessions of the real Gemini CLI 0.61.0 (test/fixtures/gemini/0.61.0/recorded, recorded by
// scripts/record-gemini-fixtures.mjs with the key scripts of src/agents/gemini/bench/recordedScenarios.ts),
// replayed chunk by chunk through a real ScreenModel, the InputRelay and the GeminiRecorder into an
// in-memory sidecar, with the chat file written as Gemini wrote it (test/support/gemini/recordedRun.ts). Each
// scenario asserts the exact rows the e2e suite (test/e2e/gemini/recGemini.test.ts) asserts on the
// live CLI, with the call ids of the session file, and Gemini's own reason strings in `native`; and
// the recorded screens against the replayed ones (an xterm or parser upgrade shows up as a readable diff).
import { describe, expect, it } from 'vitest';
import type { EventRow } from '../../../support/sidecarRows.js';
import {
  approvalRow,
  expectDecisionsLinked,
  expectNative,
  NATIVE,
  OPTION,
  promptRow,
  rejectionRow,
  skippedRow,
  toolInterruptionRow,
  view,
  type RowView,
} from '../../../support/gemini/expectedRows.js';
import { REASON } from '../../../../src/agents/gemini/bench/recordedScenarios.js';
import { screenText, type CastEvent } from '../../../support/castReplay.js';
import { TIMING_POINTS, TIMING_SWEEP, timingLabel, timingOptions } from '../../../support/timingSweep.js';
import type { SessionToolCall } from '../../../support/gemini/sessionSnapshots.js';
import { replayRecorded, type RecordedRun, type ReplayOptions } from '../../../support/gemini/recordedRun.js';

/** A replay parses a few hundred kB of output on the recording's clock; generous for 2 loaded cores. */
const REPLAY_TIMEOUT_MS = 60_000;

const rowsOf = (r: RecordedRun): EventRow[] => r.events.map((e) => e as unknown as EventRow);
const rowOf = (r: RecordedRun, type: string, callId: string | null) => rowsOf(r).find((e) => e.type === type && e.call_id === callId);

function only(r: RecordedRun): SessionToolCall {
  expect(r.calls).toHaveLength(1);
  return r.calls[0]!;
}

/** The session file's call with this argument (its order in the file is not always the batch's). */
function byArg(r: RecordedRun, key: string, value: string): SessionToolCall {
  const hit = r.calls.find((c) => c.args[key] === value);
  if (!hit) throw new Error(`no call with ${key}=${value} in ${JSON.stringify(r.calls)}`);
  return hit;
}

interface Scenario {
  readonly name: string;
  readonly does: string;
  readonly expected: (r: RecordedRun) => RowView[];
  /** Gemini's own strings the named row's `native` keeps. */
  readonly native?: (r: RecordedRun) => { row: EventRow | undefined; strings: string[] };
}

const once = { trigger: 'enter', option_label: OPTION.once, scope: 'once', ran: 'yes' } as const;
const escNo = { trigger: 'esc', option_label: OPTION.no } as const;

/** The partial answer the recorded screen showed after the cut (`✦ Counting slowly: w1 …`). */
function shownPartial(r: RecordedRun): string {
  const interrupted = r.frames.find((f) => f.frame.label === 'interrupted')!.frame.text;
  return /^✦ (Counting slowly: .*)$/m.exec(interrupted)![1]!.trimEnd();
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'shell-approve-enter',
    does: 'Enter approves once; the session file says it ran',
    expected: (r) => [promptRow('command', only(r)), approvalRow('command', only(r), once)],
  },
  {
    name: 'shell-approve-enter-initial',
    does: 'started with --prompt-interactive: Enter at the first dialog, before any key, approves once',
    expected: (r) => {
      // merge gives the call its fate from the approval, and stats counts it.
      expect(r.journey.merged.flatMap((m) => m.calls).find((c) => c.call_id === only(r).callId)?.fate).toBe('ran');
      expect(r.journey.stats.approvals).toBe(1);
      return [promptRow('command', only(r)), approvalRow('command', only(r), once)];
    },
  },
  {
    name: 'shell-approve-session',
    does: '2 approves for the session (trigger digit, scope session)',
    expected: (r) => [promptRow('command', only(r)), approvalRow('command', only(r), { trigger: 'digit', option_label: OPTION.session, scope: 'session', ran: 'yes' })],
  },
  {
    name: 'shell-reject-esc',
    does: 'Esc rejects with "No, suggest changes (esc)" (the file is deleted at exit: the rows stand)',
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), escNo)],
    native: (r) => ({ row: rowOf(r, 'rejection', only(r).callId), strings: [NATIVE.denied, NATIVE.requestCancelled] }),
  },
  {
    name: 'shell-reject-digit',
    does: '3 rejects with trigger digit',
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), { trigger: 'digit', option_label: OPTION.no })],
    native: (r) => ({ row: rowOf(r, 'rejection', only(r).callId), strings: [NATIVE.denied] }),
  },
  {
    name: 'shell-reject-down-enter',
    does: 'Down Down Enter rejects with trigger enter',
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), { trigger: 'enter', option_label: OPTION.no })],
  },
  {
    name: 'shell-ctrlc-at-dialog',
    does: 'Ctrl+C at the dialog is a rejection with trigger ctrl_c and no option',
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), { trigger: 'ctrl_c', option_label: null })],
    native: (r) => ({ row: rowOf(r, 'rejection', only(r).callId), strings: [NATIVE.cancelledByUser, NATIVE.requestCancelled] }),
  },
  {
    name: 'shell-reject-esc-kitty',
    does: 'Esc under the kitty keyboard protocol (CSI 27 u) rejects like a plain Esc',
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), escNo)],
  },
  {
    name: 'shell-reject-then-reason',
    does: "the user's next prompt after a rejection is its reason (next_message)",
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), { ...escNo, reason: REASON })],
  },
  {
    name: 'edit-reject-esc',
    does: 'Esc at "Apply this change?" rejects the replace (kind edit); the file is as before',
    expected: (r) => [promptRow('edit', only(r)), rejectionRow('edit', only(r), escNo)],
    native: (r) => ({ row: rowOf(r, 'rejection', only(r).callId), strings: [NATIVE.denied, '"file_on_disk":"as_before"'] }),
  },
  {
    name: 'edit-modify-then-allow',
    does: '3 ("Modify with external editor"), then 1 at the dialog shown again with the edit: two prompts of one call, each with its decision',
    expected: (r) => [
      promptRow('edit', only(r)),
      approvalRow('edit', only(r), { trigger: 'digit', option_label: OPTION.modify, scope: 'once', ran: 'yes' }),
      promptRow('edit', only(r)),
      approvalRow('edit', only(r), { trigger: 'digit', option_label: OPTION.once, scope: 'once', ran: 'yes' }),
    ],
  },
  {
    name: 'mcp-reject-esc',
    does: 'Esc at an MCP tool\'s dialog rejects it (kind mcp)',
    expected: (r) => [promptRow('mcp', only(r)), rejectionRow('mcp', only(r), escNo)],
    native: (r) => ({ row: rowOf(r, 'rejection', only(r).callId), strings: [NATIVE.denied] }),
  },
  {
    name: 'mcp-approve-enter',
    does: 'Enter approves an MCP tool once (kind mcp); the session file says it ran',
    expected: (r) => [promptRow('mcp', only(r)), approvalRow('mcp', only(r), once)],
  },
  {
    name: 'fetch-reject-esc',
    does: 'Esc at web_fetch\'s "Do you want to proceed?" rejects it (kind network)',
    expected: (r) => [promptRow('network', only(r)), rejectionRow('network', only(r), escNo)],
    native: (r) => ({ row: rowOf(r, 'rejection', only(r).callId), strings: [NATIVE.denied] }),
  },
  {
    name: 'parallel-writes-reject-first',
    does: 'two writes, Esc at the first: a rejection, and the second (never shown) skipped with related_call_id',
    expected: (r) => {
      const [a, b] = [byArg(r, 'file_path', 'a.txt'), byArg(r, 'file_path', 'b.txt')];
      return [promptRow('edit', a), rejectionRow('edit', a, escNo), skippedRow(b, a, 'edit')];
    },
    native: (r) => ({ row: rowOf(r, 'skipped', byArg(r, 'file_path', 'b.txt').callId), strings: [NATIVE.siblingCancelled] }),
  },
  {
    name: 'parallel-writes-approve-then-reject',
    does: 'two writes, Enter at the first and Esc at the second: approved and ran, then rejected',
    expected: (r) => {
      const [a, b] = [byArg(r, 'file_path', 'a.txt'), byArg(r, 'file_path', 'b.txt')];
      return [promptRow('edit', a), approvalRow('edit', a, once), promptRow('edit', b), rejectionRow('edit', b, escNo)];
    },
  },
  {
    name: 'parallel-shell-esc',
    does: 'three shell calls ("1 of 3") cancelled by one Esc: a rejection for the call shown, the other two skipped',
    expected: (r) => {
      const [one, two, three] = ['one', 'two', 'three'].map((n) => byArg(r, 'command', `touch ${n}.txt`)) as [SessionToolCall, SessionToolCall, SessionToolCall];
      return [promptRow('command', one), rejectionRow('command', one, escNo), skippedRow(two, one), skippedRow(three, one)];
    },
  },
  {
    name: 'long-esc-running',
    does: 'Esc while the approved sleep runs: the approval, then an interruption of kind tool, never a rejection',
    expected: (r) => [promptRow('command', only(r)), approvalRow('command', only(r), once), toolInterruptionRow(only(r), { trigger: 'esc', option_label: null })],
    native: (r) => ({ row: rowOf(r, 'interruption', only(r).callId), strings: [NATIVE.cancelledByUser] }),
  },
  {
    name: 'long-ctrlc-running',
    does: 'Ctrl+C while the approved sleep runs: the approval, then an interruption of kind tool',
    expected: (r) => [promptRow('command', only(r)), approvalRow('command', only(r), once), toolInterruptionRow(only(r), { trigger: 'ctrl_c', option_label: null })],
    native: (r) => ({ row: rowOf(r, 'interruption', only(r).callId), strings: [NATIVE.cancelledByUser] }),
  },
  ...(['esc', 'ctrl_c'] as const).map((trigger) => ({
    name: trigger === 'esc' ? 'stream-esc' : 'stream-ctrlc',
    does: `${trigger} while the answer streams: an interruption of kind response with the partial answer the screen showed`,
    expected: (r: RecordedRun): RowView[] => {
      expect(r.calls).toEqual([]);
      return [{ type: 'interruption', kind: 'response', trigger, option_label: null, call_id: null, related_call_id: null, partial_output: shownPartial(r) }];
    },
    native: (r: RecordedRun) => ({ row: rowsOf(r)[0], strings: [NATIVE.requestCancelled] }),
  })),
];

/** The rows with each run of skipped rows sorted by call id. */
function skippedAsSet(rows: RowView[]): RowView[] {
  const out = [...rows];
  for (let i = 0; i < out.length; ) {
    let j = i;
    while (j < out.length && out[j]!.type === 'skipped') j += 1;
    if (j > i + 1) out.splice(i, j - i, ...out.slice(i, j).sort((a, b) => String(a.call_id).localeCompare(String(b.call_id))));
    i = Math.max(j, i + 1);
  }
  return out;
}

function suite(options: ReplayOptions = {}, scenarios: readonly Scenario[] = SCENARIOS): void {
  for (const s of scenarios) {
    it(`${s.name}: ${s.does}`, async () => {
      const r = await replayRecorded(s.name, options);
      const rows = rowsOf(r);
      // Skipped siblings come in the order the file lists them: with the batch reversed, as a set.
      const order = options.reversedBatches ? skippedAsSet : (v: RowView[]) => v;
      expect(order(rows.map(view))).toEqual(order(s.expected(r)));
      expectDecisionsLinked(rows);
      if (s.native) {
        const { row, strings } = s.native(r);
        expectNative(row, ...strings);
      }
      // Every chat record was copied verbatim, the run names Gemini's session, and every key reached Gemini untouched.
      expect(r.agentRecords).toBe(r.sessionLines);
      expect(r.sessionId).toBe(r.metaSessionId);
      expect(r.forwarded.equals(r.keysSent)).toBe(true);
    }, REPLAY_TIMEOUT_MS);
  }
}

describe('gemini 0.61.0, 120x40, recorded with scripts/record-gemini-fixtures.mjs', () => {
  suite();
});

/**
 * The chat file trailing the screen (a loaded machine): 400 ms is two of the recorder's polls
 * (SESSION_POLL_MS) behind what the screen shows; 1500 ms is more than a scan (SESSION_SCAN_MS) behind.
 */
const LAGGING_CHAT_MS = [400, 1_500] as const;

// Hookless, the file is followed only once a scan finds in it a user message the screen showed.
// 1500 ms late, shell-approve-session quits before the file is confirmed (the screen is cleared
// by then: the user messages last shown are the witness), and in stream-ctrlc the interruption
// needs the file's turn at its key (a deciding key scans while no file is known).
for (const lag of LAGGING_CHAT_MS) {
  describe(`gemini 0.61.0, recorded with scripts/record-gemini-fixtures.mjs, chat file written ${lag} ms late`, () => {
    suite({ fileLagMs: lag });
  });
}

for (const point of TIMING_POINTS) {
  describe(`gemini 0.61.0, recorded, ${timingLabel(point, 'chat file')}`, () => {
    suite(timingOptions(point));
  });
}

/**
 * A quicker model and machine as well (a warm Gemini on a fresh machine answered and quit within a
 * second of the message): everything 4 times as fast, keys at once. A deny-only session is then
 * over, and its file deleted, within the witness settle time (sessionBinding.ts): it is bound only
 * through the chat file held open since it appeared (heldFiles.ts), by the session id Gemini prints
 * as it quits. Without that, these fail. Not 1500 ms late: the whole session takes less, and Gemini
 * writes its file before it prints the summary that ends it.
 */
const SPEEDUP = 4;
for (const fileLagMs of TIMING_SWEEP ? [0, LAGGING_CHAT_MS[0]] : []) {
  describe(`gemini 0.61.0, recorded, ${SPEEDUP} times as fast, keys at once, chat file ${fileLagMs} ms late`, () => {
    suite({ keyDelayMs: 0, speedup: SPEEDUP, fileLagMs });
  });
}

/**
 * A refused call's siblings are booked whatever the order Gemini writes a batch in (it wrote the
 * queued sibling before the call it asked about): each batch reversed, on time and quicker.
 */
const BATCHES = SCENARIOS.filter((s) => s.name.startsWith('parallel-'));
for (const timing of [{}, ...(TIMING_SWEEP ? [{ keyDelayMs: 0, speedup: SPEEDUP }] : [])]) {
  describe(`gemini 0.61.0, recorded, every batch of calls written in the reverse order${'speedup' in timing ? `, ${SPEEDUP} times as fast` : ''}`, () => {
    suite({ ...timing, reversedBatches: true }, BATCHES);
  });
}

/** The time of the Enter that approved the first dialog (the first Enter once "Allow once" showed). */
function approvingEnter(events: readonly CastEvent[]): number {
  const shown = events.find((e) => e.kind === 'o' && e.data.includes('Allow once'));
  const enter = events.find((e) => e.kind === 'i' && e.data === '\r' && shown !== undefined && e.t > shown.t);
  if (!enter) throw new Error('no Enter at a dialog in the recording');
  return enter.t;
}

/** 50 ms: a person's Enter then Esc, well inside the second Gemini took to redraw after the Enter. */
const QUICK_S = 0.05;

/**
 * Esc (or Ctrl+C) right after the Enter that approved a dialog, while Gemini still draws it. Gemini
 * may take it as a cut of the approved call or drop it (measured on the real CLI: dropped 0 and
 * 100 ms after the Enter, taken at 300 and 600 ms on a loaded machine), and only its next screens
 * say which. The recordings give both: the key moved into that window, Gemini's cut still follows
 * (taken); a key added there, Gemini's screens go on as recorded (dropped).
 */
describe('gemini 0.61.0, recorded: Esc or Ctrl+C quicker than the redraw after an approving Enter', () => {
  const byName = (name: string) => SCENARIOS.find((x) => x.name === name)!;
  for (const [name, key] of [['long-esc-running', '\x1b'], ['long-ctrlc-running', '\x03']] as const) {
    it(`${name}, the key ${QUICK_S * 1000} ms after the Enter, Gemini's cut following as recorded: the same interruption`, async () => {
      const moved = (events: readonly CastEvent[]) => {
        const at = approvingEnter(events) + QUICK_S;
        return events.map((e) => (e.kind === 'i' && e.data === key ? { ...e, t: at } : e));
      };
      const r = await replayRecorded(name, { alterKeys: moved });
      expect(rowsOf(r).map(view)).toEqual(byName(name).expected(r));
      expectDecisionsLinked(rowsOf(r));
    }, REPLAY_TIMEOUT_MS);
  }

  it('long-esc-running, an Esc Gemini dropped right after the Enter, then the recorded one: one interruption, from the second', async () => {
    const added = (events: readonly CastEvent[]) => [...events, { t: approvingEnter(events) + QUICK_S, kind: 'i' as const, data: '\x1b' }];
    const r = await replayRecorded('long-esc-running', { alterKeys: added });
    expect(rowsOf(r).map(view)).toEqual(byName('long-esc-running').expected(r));
  }, REPLAY_TIMEOUT_MS);

  for (const name of ['shell-approve-enter', 'mcp-approve-enter']) {
    it(`${name}, an Esc Gemini dropped right after the Enter, the call running to its end: no interruption`, async () => {
      const added = (events: readonly CastEvent[]) => [...events, { t: approvingEnter(events) + QUICK_S, kind: 'i' as const, data: '\x1b' }];
      const r = await replayRecorded(name, { alterKeys: added });
      expect(rowsOf(r).map(view)).toEqual(byName(name).expected(r));
    }, REPLAY_TIMEOUT_MS);
  }
});

describe('gemini 0.61.0 recorded screens: the replayed screen equals each recorded frame (golden screens)', () => {
  for (const s of SCENARIOS) {
    it(s.name, async () => {
      const r = await replayRecorded(s.name);
      expect(r.frames.map((f) => f.frame.label)).toContain('final');
      for (const { frame, replayed, replayedSize } of r.frames) {
        const want = screenText(frame.text);
        // The frame's own time first; else a screen just before one of the last chunks (test/support/gemini/recordedRun.ts).
        const got = replayed.find((x) => x === want) ?? replayed[0];
        expect(`# ${frame.label} ${replayedSize}\n${got}`).toBe(`# ${frame.label} ${frame.cols}x${frame.rows}\n${want}`);
      }
      expect(r.finalScreen).toBe(screenText(r.frames.at(-1)!.frame.text));
    }, REPLAY_TIMEOUT_MS);
  }
});

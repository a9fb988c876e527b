// Recorded sessions of the real GitHub Copilot CLI, every verified version's
// (test/fixtures/copilot/<version>/recorded, recorded by scripts/record-copilot-fixtures.mjs with the
// key scripts of src/agents/copilot/bench/recordedScenarios.ts), replayed whole: the pty output chunk
// by chunk through a real ScreenModel, the keys through the InputRelay to the CopilotRecorder, which
// writes to a real sidecar, with events.jsonl written as Copilot wrote it on the recording's clock
// (test/support/copilot/recordedRun.ts); then `rec merge` and `rec stats` of the run. Each recording
// must give the rows recorder.test.ts asserts step by step, with the call ids of the file, at every
// point of the timing sweep; and each labelled screen of the recording must be the replayed one.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REASON } from '../../../../src/agents/copilot/bench/mockScenarios.js';
import { screenText } from '../../../support/castReplay.js';
import {
  approvalRow,
  expectDecisionsLinked,
  OPTION,
  promptRow,
  rejectionRow,
  responseInterruptionRow,
  ruleRejectionRow,
  skippedRow,
  toolInterruptionRow,
  view,
  type CallRef,
  type RowView,
} from '../../../support/copilot/expectedRows.js';
import { RECORDED_BY_VERSION, replayRecorded, type RecordedRun, type ReplayOptions } from '../../../support/copilot/recordedRun.js';
import type { EventRow } from '../../../support/sidecarRows.js';
import { TIMING_POINTS, timingLabel, timingOptions } from '../../../support/timingSweep.js';

/** A replay parses a few hundred kB of output on the recording's clock; generous for 2 loaded cores. */
const REPLAY_TIMEOUT_MS = 60_000;

/**
 * Not replayed whole: the folder trust dialog was answered before any prompt, so Copilot wrote no
 * events.jsonl and `rec merge --run` has nothing to read. recorder.test.ts replays them step by step.
 */
const NO_SESSION_FILE = new Set(['trust-esc', 'trust-remember']);

const rowsOf = (r: RecordedRun): EventRow[] => r.events.map((e) => e as unknown as EventRow);

function only(r: RecordedRun): CallRef {
  expect(r.calls).toHaveLength(1);
  return r.calls[0]!;
}

/** The n-th call Copilot asked about, in the order its queue showed the prompts. */
const asked = (r: RecordedRun, n = 0): CallRef => r.prompted[n]!;

/** The answer the screen showed when the key cut it: the `● word0 …` row of the last frame of that label. */
function shownAnswer(r: RecordedRun, label: string): string {
  const frame = r.frames.filter((f) => f.frame.label === label).at(-1)!.frame.text;
  return /^ ● (word0.*)$/m.exec(frame)![1]!.trimEnd();
}

interface Scenario {
  readonly name: string;
  readonly does: string;
  readonly expected: (r: RecordedRun) => RowView[];
}

const once = (trigger: string) => ({ trigger, option_label: OPTION.yes, scope: 'once', ran: 'yes' }) as const;
const esc = { trigger: 'esc', option_label: null } as const;
const told = { trigger: 'digit', option_label: OPTION.noAndTell, reason: REASON } as const;

/** One prompt of the only call, and its decision. */
const asks = (kind: string, decision: (r: RecordedRun, call: CallRef) => RowView) => (r: RecordedRun) => [promptRow(kind, asked(r)), decision(r, asked(r))];
const approves = (kind: string, o: Parameters<typeof approvalRow>[2]) => asks(kind, (_r, c) => approvalRow(kind, c, o));
const refuses = (kind: string, o: Parameters<typeof rejectionRow>[2]) => asks(kind, (_r, c) => rejectionRow(kind, c, o));

const SCENARIOS: readonly Scenario[] = [
  { name: 'bash-approve-digit', does: '1 approves once', expected: approves('command', once('digit')) },
  { name: 'bash-approve-enter', does: 'Enter on the highlighted Yes approves once', expected: approves('command', once('enter')) },
  { name: 'bash-approve-arrows', does: 'Down, Enter on the empty No field (nothing), Up, Enter approves once', expected: approves('command', once('enter')) },
  { name: 'bash-pipe-approve', does: '1 approves a piped command', expected: approves('command', once('digit')) },
  {
    name: 'bash-approve-location',
    does: "2 approves for the repo; the same command again asks nothing",
    expected: approves('command', { trigger: 'digit', option_label: OPTION.commandInRepo('node'), scope: 'always', ran: 'yes' }),
  },
  { name: 'bash-reject-esc', does: 'Esc refuses', expected: refuses('command', esc) },
  { name: 'bash-reject-ctrlc', does: 'Ctrl+C refuses', expected: refuses('command', { trigger: 'ctrl_c', option_label: null }) },
  { name: 'bash-and-reject-esc', does: 'Esc refuses a command of two', expected: refuses('command', esc) },
  { name: 'bash-reject-reason', does: '2, a reason, Enter refuses with the reason, inline', expected: refuses('command', told) },
  { name: 'bash-reject-reason-esc', does: '2, a reason, then Esc refuses; the text typed is thrown away', expected: refuses('command', { ...esc, typed: true }) },
  { name: 'bash-read-auto', does: 'a read-only command asks nothing: no row', expected: () => [] },
  { name: 'allow-tool-rule', does: "--allow-tool 'shell(node)' lets the command run: no row", expected: () => [] },
  { name: 'deny-tool-rule', does: "--deny-tool 'shell(rm)' refuses without a prompt: the rule's rejection", expected: (r) => [ruleRejectionRow(only(r))] },
  { name: 'create-approve', does: '1 approves a new file once', expected: approves('edit', once('digit')) },
  {
    name: 'create-approve-location',
    does: '2 approves file operations for the repo',
    expected: approves('edit', { trigger: 'digit', option_label: OPTION.filesInRepo, scope: 'always', ran: 'yes' }),
  },
  { name: 'create-reject-esc', does: 'Esc refuses a new file', expected: refuses('edit', esc) },
  { name: 'edit-reject-reason', does: 'after a view that asked nothing, 3, a reason, Enter refuses the edit', expected: refuses('edit', told) },
  { name: 'path-reject-digit', does: '4 "No (Esc)" refuses the path', expected: refuses('permission', { trigger: 'digit', option_label: OPTION.noEsc }) },
  { name: 'path-reject-esc', does: 'Esc refuses the path, its option "No (Esc)"', expected: refuses('permission', { trigger: 'esc', option_label: OPTION.noEsc }) },
  {
    name: 'path-approve-session',
    does: '2 approves the path for the session',
    expected: approves('permission', { trigger: 'digit', option_label: OPTION.rememberPath, scope: 'session', ran: 'yes' }),
  },
  {
    name: 'url-approve',
    does: '1 at the URL prompt, then 1 at the shell prompt of the same call: two prompts, two approvals, one call',
    expected: (r) => [promptRow('network', only(r)), approvalRow('network', only(r), once('digit')), promptRow('command', only(r)), approvalRow('command', only(r), once('digit'))],
  },
  {
    name: 'url-approve-always',
    does: '3 approves the URL permanently, then Esc refuses the shell prompt of the same call',
    expected: (r) => [
      promptRow('network', only(r)),
      approvalRow('network', only(r), { trigger: 'digit', option_label: OPTION.urlsPermanently('http://127.0.0.1:9'), scope: 'always', ran: 'unknown' }),
      promptRow('command', only(r)),
      rejectionRow('command', only(r), esc),
    ],
  },
  { name: 'url-reject-esc', does: 'Esc refuses the URL', expected: refuses('network', esc) },
  { name: 'mcp-approve', does: '1 approves an MCP tool once', expected: approves('mcp', once('digit')) },
  {
    name: 'mcp-approve-location',
    does: '2 approves the MCP tool for the repo',
    expected: approves('mcp', { trigger: 'digit', option_label: OPTION.toolInRepo('touch_marker', 'marker'), scope: 'always', ran: 'yes' }),
  },
  { name: 'mcp-reject-esc', does: 'Esc refuses an MCP tool', expected: refuses('mcp', esc) },
  { name: 'askuser-esc', does: "Esc at ask_user's form: not a permission, no row", expected: () => [] },
  { name: 'askuser-answer', does: "Enter at ask_user's form: not a permission, no row", expected: () => [] },
  {
    name: 'parallel-second-esc',
    does: 'three calls: 1 at the first prompt, Esc at the second; the third skipped after it',
    expected: (r) => [promptRow('command', asked(r, 0)), approvalRow('command', asked(r, 0), once('digit')), promptRow('command', asked(r, 1)), rejectionRow('command', asked(r, 1), esc), skippedRow(asked(r, 2), asked(r, 1))],
  },
  {
    name: 'parallel-first-reason',
    does: 'three calls: 2 and a reason at the first prompt (the turn goes on), 1 at each that follows',
    expected: (r) => [0, 1, 2].flatMap((n) => [promptRow('command', asked(r, n)), n === 0 ? rejectionRow('command', asked(r, n), told) : approvalRow('command', asked(r, n), once('digit'))]),
  },
  {
    name: 'hooks-parallel-esc',
    does: "with the user's hooks writing to events.jsonl: Esc at the first of three prompts refuses it; the other two skipped",
    expected: (r) => [promptRow('command', asked(r)), rejectionRow('command', asked(r), esc), ...r.calls.filter((c) => c.callId !== asked(r).callId).map((c) => skippedRow(c, asked(r)))],
  },
  { name: 'hooks-bash-reject-reason', does: "with the user's hooks: 2, a reason, Enter is the same refusal", expected: refuses('command', told) },
  {
    name: 'sleep-esc-esc-running',
    does: 'Esc, Esc while the approved command runs: the first only arms, the second interrupts the call',
    expected: (r) => [promptRow('command', only(r)), approvalRow('command', only(r), once('digit')), toolInterruptionRow(only(r), esc)],
  },
  {
    name: 'sleep-ctrlc-running',
    does: 'Ctrl+C while the approved command runs interrupts the call',
    expected: (r) => [promptRow('command', only(r)), approvalRow('command', only(r), once('digit')), toolInterruptionRow(only(r), { trigger: 'ctrl_c', option_label: null })],
  },
  { name: 'slowtext-esc-esc', does: 'Esc, Esc while the answer streams: the answer shown at the second Esc', expected: (r) => [responseInterruptionRow('esc', shownAnswer(r, 'esc-once'))] },
  { name: 'slowtext-ctrlc', does: 'Ctrl+C while the answer streams: the answer shown at the key', expected: (r) => [responseInterruptionRow('ctrl_c', shownAnswer(r, 'streaming'))] },
  { name: 'resume-continue', does: 'the first start: 1 approves once', expected: approves('command', once('digit')) },
  {
    name: 'resume-continue.launch2',
    does: 'copilot --continue, appending to the same file: its own approval of its new call, nothing of the earlier start',
    expected: approves('command', once('digit')),
  },
];

/** Replays at the recording's own timing are shared by the row and the screen suites (each is deterministic). */
const replays = new Map<string, Promise<RecordedRun>>();
function replay(name: string, options: ReplayOptions & { readonly dir: string }): Promise<RecordedRun> {
  if (Object.keys(options).length > 1) return replayRecorded(name, options);
  const key = `${options.dir}/${name}`;
  let run = replays.get(key);
  if (!run) replays.set(key, (run = replayRecorded(name, { dir: options.dir })));
  return run;
}

function suite(options: ReplayOptions & { readonly dir: string }): void {
  for (const s of SCENARIOS) {
    it(`${s.name}: ${s.does}`, async () => {
      const r = await replay(s.name, options);
      const rows = rowsOf(r);
      expect(rows.map(view)).toEqual(s.expected(r));
      expectDecisionsLinked(rows);
      // Every line of this start's part was copied (none of an earlier start's), the run names the
      // file's session, and every key reached Copilot untouched.
      expect(r.agentRecords).toBe(r.sessionLines);
      expect(r.sessionId).toBe(r.fileSessionId);
      expect(r.forwarded.equals(r.keysSent)).toBe(true);
    }, REPLAY_TIMEOUT_MS);
  }
}

for (const { version, recorded } of RECORDED_BY_VERSION) {
  describe(`copilot ${version}, 120x40, recorded with scripts/record-copilot-fixtures.mjs`, () => {
    it('every recording is a scenario here, but those without a session file', () => {
      const names = readdirSync(recorded).filter((f) => f.endsWith('.cast')).map((f) => f.slice(0, -'.cast'.length));
      expect(names.filter((n) => !NO_SESSION_FILE.has(n)).sort()).toEqual(SCENARIOS.map((s) => s.name).sort());
    });
    suite({ dir: recorded });
  });

  for (const point of TIMING_POINTS) {
    describe(`copilot ${version}, recorded, ${timingLabel(point, 'events.jsonl')}`, () => {
      suite({ dir: recorded, ...timingOptions(point) });
    });
  }

  describe(`copilot ${version} recorded screens: the replayed screen equals each recorded frame (golden screens)`, () => {
    for (const s of SCENARIOS) {
      it(s.name, async () => {
        const r = await replay(s.name, { dir: recorded });
        expect(r.frames.map((f) => f.frame.label)).toContain('exited');
        for (const { frame, replayed, replayedSize } of r.frames) {
          const want = screenText(frame.text);
          // The frame's own time first; else a screen just before one of the last chunks (test/support/copilot/recordedRun.ts).
          const got = replayed.find((x) => x === want) ?? replayed[0];
          expect(`# ${frame.label} ${replayedSize}\n${got}`).toBe(`# ${frame.label} ${frame.cols}x${frame.rows}\n${want}`);
        }
        expect(r.finalScreen).toBe(screenText(r.frames.at(-1)!.frame.text));
      }, REPLAY_TIMEOUT_MS);
    }
  });
}

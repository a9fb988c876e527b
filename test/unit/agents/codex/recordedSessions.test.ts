// Recorded sessions of the real Codex CLI, every verified version's (test/fixtures/codex/<version>/recorded,
// each version kept replaying after a newer one is pinned; recorded by
// scripts/record-codex-fixtures.mjs with the key scripts of src/agents/codex/bench/recordedScenarios.ts),
// replayed chunk by chunk through a real ScreenModel, the InputRelay and the CodexRecorder into an
// in-memory sidecar, with the rollout written as Codex wrote it (test/support/codex/recordedRun.ts). Each scenario
// asserts the exact rows the e2e suite asserts on the live CLI, and every labelled screen of the
// recording against the replayed screen (an xterm or parser upgrade shows up as a readable diff).
import { describe, expect, it } from 'vitest';
import { TIMING_POINTS, timingLabel, timingOptions } from '../../../support/timingSweep.js';
import { approvalRow, detachedRow, OPTION, promptRow, rejectionRow, skippedRow, toolInterruptionRow, view, type RowView } from '../../../support/codex/expectedRows.js';
import type { EventRow } from '../../../support/sidecarRows.js';
import type { RolloutCall } from '../../../support/codex/rolloutCalls.js';
import { screenText } from '../../../support/castReplay.js';
import { RECORDED_BY_VERSION, replayRecorded, type RecordedRun, type ReplayOptions } from '../../../support/codex/recordedRun.js';

/** A replay parses a few hundred kB of output on the recording's clock; generous for 2 loaded cores. */
const REPLAY_TIMEOUT_MS = 60_000;

/**
 * Codex's rollout writer flushes on its own schedule: the replays are run again with the rollout this
 * far behind. 400 ms puts the prompt's call after the deciding key (keys come 300 ms after a prompt);
 * 1500 ms puts it after an interrupt of the approved command as well.
 */
const LAGGING_ROLLOUT_MS = [400, 1_500] as const;

/** Replays without a lag are shared by the row and the screen suites (each is deterministic). */
const replays = new Map<string, Promise<RecordedRun>>();
function replay(name: string, options: ReplayOptions & { readonly dir: string }): Promise<RecordedRun> {
  if (options.fileLagMs !== undefined || options.keyDelayMs !== undefined || options.keysWhileDrawing === true) return replayRecorded(name, options);
  const key = `${options.dir}/${name}`;
  let run = replays.get(key);
  if (!run) replays.set(key, (run = replayRecorded(name, { dir: options.dir })));
  return run;
}

const rows = (run: RecordedRun): RowView[] => run.events.map((e) => view(e as unknown as EventRow));

function only(run: RecordedRun): RolloutCall {
  expect(run.calls).toHaveLength(1);
  return run.calls[0]!;
}

/** The call a recorded frame's prompt shows, told by its `Reason:` line (the call's justification). */
function callShownIn(run: RecordedRun, label: string): RolloutCall {
  const frame = run.frames.find((f) => f.frame.label === label);
  const reason = /Reason: (.+)$/m.exec(frame?.frame.text ?? '')?.[1];
  const call = run.calls.find((c) => c.args.justification === reason);
  if (!call) throw new Error(`no call shown in frame ${label}`);
  return call;
}

interface Scenario {
  readonly name: string;
  readonly does: string;
  readonly expected: (run: RecordedRun) => RowView[];
  /** The first version it was recorded on (a scenario added after a version was verified); every version by default. */
  readonly since?: string;
}

const yes = { trigger: 'letter', option_label: OPTION.yes, scope: 'once' } as const;

const SCENARIOS_120X40: readonly Scenario[] = [
  {
    name: 'shell-approve-y',
    does: 'y approves once; the rollout shows the command ran',
    expected: (r) => [promptRow('command', only(r)), approvalRow('command', only(r), yes)],
  },
  {
    name: 'shell-approve-p',
    does: 'p approves with scope always (the prefix rule outlives the session)',
    expected: (r) => [
      promptRow('command', only(r)),
      approvalRow('command', only(r), { trigger: 'letter', option_label: OPTION.always(String(only(r).args.cmd)), scope: 'always' }),
    ],
  },
  {
    name: 'shell-reject-esc',
    does: 'Esc rejects',
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), { trigger: 'esc', option_label: OPTION.no })],
  },
  {
    name: 'shell-reject-n',
    does: 'n rejects although Codex shows no n hotkey',
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), { trigger: 'letter', option_label: OPTION.no })],
  },
  {
    name: 'shell-reject-option3',
    does: 'Down Down Enter chooses option 3',
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), { trigger: 'enter', option_label: OPTION.no })],
  },
  {
    name: 'shell-ctrlc-at-prompt',
    does: 'Ctrl+C at the prompt rejects with no option',
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), { trigger: 'ctrl_c', option_label: null })],
  },
  {
    name: 'shell-reject-then-reason',
    does: 'the message after a rejection is its reason',
    expected: (r) => [
      promptRow('command', only(r)),
      rejectionRow('command', only(r), { trigger: 'esc', option_label: OPTION.no, reason: 'do not write files in the repo' }),
    ],
  },
  {
    name: 'patch-approve-y',
    does: 'y at the edits prompt approves the edit; it was applied',
    expected: (r) => [promptRow('edit', only(r)), approvalRow('edit', only(r), yes)],
  },
  {
    name: 'patch-reject-esc',
    does: 'Esc at the edits prompt rejects the edit',
    expected: (r) => [promptRow('edit', only(r)), rejectionRow('edit', only(r), { trigger: 'esc', option_label: OPTION.no })],
  },
  {
    name: 'sleep-esc-while-running',
    does: 'Esc while the approved command runs: an approval, then an interruption of kind tool, never a rejection',
    expected: (r) => [
      promptRow('command', only(r)),
      approvalRow('command', only(r), yes),
      toolInterruptionRow(only(r), { trigger: 'esc', option_label: null }),
    ],
  },
  {
    name: 'sleep-ctrlc-cancel',
    does: 'Ctrl+C while the command runs, then Cancel task in the menu',
    expected: (r) => [
      promptRow('command', only(r)),
      approvalRow('command', only(r), yes),
      toolInterruptionRow(only(r), { trigger: 'ctrl_c', option_label: 'Cancel task' }),
    ],
  },
  {
    name: 'sleep-ctrlc-exit',
    does: 'Ctrl+C while the command runs, then Exit in the menu: Codex stops the task and exits',
    expected: (r) => [
      promptRow('command', only(r)),
      approvalRow('command', only(r), yes),
      toolInterruptionRow(only(r), { trigger: 'ctrl_c', option_label: 'Exit' }),
    ],
  },
  {
    name: 'text-ctrlc-background',
    does: 'Ctrl+C while the answer streams, then Run in background: detached, not an interruption',
    expected: (r) => {
      expect(r.calls).toEqual([]);
      return [detachedRow()];
    },
  },
  {
    name: 'text-esc-while-streaming',
    does: 'Esc while the answer streams: the partial answer on screen is kept',
    expected: (r) => {
      expect(r.calls).toEqual([]);
      // Codex keeps the cut answer on screen: the recorded screen after the Esc shows what was streamed.
      const interrupted = r.frames.find((f) => f.frame.label === 'interrupted')!.frame.text;
      const partial = /^• (Counting slowly: .*)$/m.exec(interrupted)![1]!.trimEnd();
      return [{ type: 'interruption', kind: 'response', trigger: 'esc', option_label: null, call_id: null, related_call_id: null, partial_output: partial }];
    },
  },
  {
    name: 'parallel-approve-reject',
    does: 'three parallel calls: the first shown approved, the second rejected, the third skipped',
    expected: (r) => {
      expect(r.calls).toHaveLength(3);
      const approved = callShownIn(r, 'prompt-1');
      const rejected = callShownIn(r, 'prompt-2');
      const skipped = r.calls.find((c) => c !== approved && c !== rejected)!;
      return [
        promptRow('command', approved),
        approvalRow('command', approved, yes),
        promptRow('command', rejected),
        rejectionRow('command', rejected, { trigger: 'esc', option_label: OPTION.no }),
        skippedRow(skipped, rejected),
      ];
    },
  },
  {
    name: 'npm-test-approve-y',
    does: 'three plain commands in one turn, each prompted and approved with y in turn',
    since: '0.171.0',
    expected: (r) => {
      expect(r.calls.map((c) => c.args.cmd)).toEqual(['npm test', 'npm test -- --grep parser', 'npm test -- a.test.js']);
      return r.calls.flatMap((c) => [promptRow('command', c), approvalRow('command', c, yes)]);
    },
  },
  {
    name: 'resize-at-prompt',
    does: 'the prompt redrawn at 70x30 is the same prompt; Esc then rejects it',
    expected: (r) => [promptRow('command', only(r)), rejectionRow('command', only(r), { trigger: 'esc', option_label: OPTION.no })],
  },
];

const SCENARIOS_80X40: readonly Scenario[] = [
  {
    name: 'long-command-wrapped',
    does: 'a command wrapped over several rows of the prompt is matched to its call and approved',
    expected: (r) => [promptRow('command', only(r)), approvalRow('command', only(r), yes)],
  },
];

/** Whether `version` (dotted numbers) is `since` or newer. */
function atLeast(version: string, since: string): boolean {
  const a = version.split('.').map(Number);
  const b = since.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/** The scenarios recorded on `version`. */
function recordedOn(version: string, scenarios: readonly Scenario[]): Scenario[] {
  return scenarios.filter((s) => s.since === undefined || atLeast(version, s.since));
}

function suite(scenarios: readonly Scenario[], options: ReplayOptions & { readonly dir: string }): void {
  for (const s of scenarios) {
    it(`${s.name}: ${s.does}`, async () => {
      const run = await replay(s.name, options);
      expect(rows(run)).toEqual(s.expected(run));
      // Every rollout record was copied verbatim, and every key reached Codex untouched.
      expect(run.agentRecords).toBe(run.rolloutLines);
      expect(run.forwarded.equals(run.keysSent)).toBe(true);
    }, REPLAY_TIMEOUT_MS);
  }
}

for (const { version, recorded: dir } of RECORDED_BY_VERSION) {
  describe(`codex ${version}, 120x40, recorded with scripts/record-codex-fixtures.mjs`, () => {
    suite(recordedOn(version, SCENARIOS_120X40), { dir });
  });

  describe(`codex ${version}, 80x40, recorded with scripts/record-codex-fixtures.mjs`, () => {
    suite(SCENARIOS_80X40, { dir });

    it('long-command-wrapped: the prompt keeps the command re-joined from its wrapped rows, as the rollout spells it', async () => {
      const run = await replay('long-command-wrapped', { dir });
      const prompt = run.events.find((e) => e.type === 'prompt');
      expect(prompt?.prompt?.details?.command).toBe(String(only(run).args.cmd));
    }, REPLAY_TIMEOUT_MS);
  });

  for (const lag of LAGGING_ROLLOUT_MS) {
    describe(`codex ${version}, recorded with scripts/record-codex-fixtures.mjs, rollout written ${lag} ms late`, () => {
      // The rollout then trails the screen past the deciding key: the prompt is matched to its call
      // afterwards, the message that started the turn is not taken for a rejection's reason, and an
      // interrupt of the approved command is of kind tool although its call was not read yet.
      // Except where Codex exits at the decision (Exit in the task menu) and the rollout lags as long
      // as rec waits after an exit (RECONCILE_AFTER_EXIT_MS, 1.5 s): the recorder never sees
      // the calls then, and its events keep call_id empty (a known limit, noted in docs/codex.md).
      const exitsAtOnce = new Set(lag >= 1500 ? ['sleep-ctrlc-exit'] : []);
      suite(recordedOn(version, [...SCENARIOS_120X40, ...SCENARIOS_80X40]).filter((s) => !exitsAtOnce.has(s.name)), { dir, fileLagMs: lag });
    });
  }

  for (const point of TIMING_POINTS) {
    describe(`codex ${version}, recorded, ${timingLabel(point, 'rollout')}`, () => {
      const exitsAtOnce = new Set(point.lagMs >= 1500 ? ['sleep-ctrlc-exit'] : []);
      suite(recordedOn(version, [...SCENARIOS_120X40, ...SCENARIOS_80X40]).filter((s) => !exitsAtOnce.has(s.name)), { dir, ...timingOptions(point) });
    });
  }

  describe(`codex ${version} recorded screens: the replayed screen equals each recorded frame (golden screens)`, () => {
    for (const s of recordedOn(version, [...SCENARIOS_120X40, ...SCENARIOS_80X40])) {
      it(s.name, async () => {
        const run = await replay(s.name, { dir });
        expect(run.frames.map((f) => f.frame.label)).toContain('final');
        for (const { frame, replayed, replayedSize } of run.frames) {
          expect(`# ${frame.label} ${replayedSize}\n${replayed}`).toBe(`# ${frame.label} ${frame.cols}x${frame.rows}\n${screenText(frame.text)}`);
        }
        const final = run.frames.at(-1)!;
        expect(screenText(run.finalScreen)).toBe(screenText(final.frame.text));
      }, REPLAY_TIMEOUT_MS);
    }
  });
}

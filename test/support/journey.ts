// The user's whole path after a recording: `rec merge --run ID` and `rec stats --run ID --json`, run
// as the installed command runs them (bin/rec.js, a child process), and checked against every
// decision the sidecar holds for the run. Every real-CLI scenario, every replayed recording and the
// fake journey end here: a decision recorded but lost on the way to the user's analysis fails.
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import type { RecEvent } from '../../src/core/events.js';
import { MergedSession } from '../../src/merge/mergedSession.js';
import type { StatsReport } from '../../src/stats/aggregateStats.js';
import { readEventRows, readRuns } from './sidecarRows.js';
import { mergeCommand } from '../../src/commands/merge.js';
import { statsCommand } from '../../src/commands/stats.js';
import { REC_BIN } from './rec.js';
import { runCommand } from './runCommand.js';

/** merge and stats of one run read one session file or a few: generous for two loaded cores. */
const COMMAND_TIMEOUT_MS = 60_000;

export interface Journey {
  /** The run's decisions as the sidecar holds them (prompts left out). */
  readonly decisions: readonly RecEvent[];
  /** The decisions the agent's file showed that the recorder missed (`miss` events). */
  readonly misses: readonly RecEvent[];
  readonly merged: readonly MergedSession[];
  readonly stats: StatsReport;
}

export interface JourneyOptions {
  readonly dbPath: string;
  readonly runId: string;
  /** The environment `rec` runs in (HOME and the agents' homes only matter for discovery). */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Runs the commands in this process (the replays: hundreds of them, where a Node start each
   * would cost minutes); the real-CLI scenarios run the installed command as a child process.
   */
  readonly inProcess?: boolean;
}

type ArrayName = 'approvals' | 'rejections' | 'skipped' | 'interruptions';

/** Runs merge and stats on the run as a user would, and asserts that every decision came out. */
export async function expectJourney(o: JourneyOptions): Promise<Journey> {
  const rows = readEventRows(o.dbPath).filter((e) => e.run_id === o.runId && e.type !== 'prompt');
  const decisions = rows.filter((e) => e.type !== 'miss');
  const misses = rows.filter((e) => e.type === 'miss');
  // The 8-character id `rec runs` shows, as a user types it.
  const ref = o.runId.slice(0, 8);
  const rec = o.inProcess ? recInProcess : recChild;
  const merge = await rec(['merge', '--run', ref, '--jsonl', '--no-progress', '--db', o.dbPath], o.env);
  expect(merge.stderr, 'rec merge said').not.toMatch(/decision_unreadable|incomplete/);
  expect(merge.status, `rec merge --run ${ref}: ${merge.stderr}`).toBe(0);
  const merged = merge.stdout.trimEnd().split('\n').filter((l) => l !== '').map((l) => MergedSession.parse(JSON.parse(l)));
  expect(merged.length, 'merged sessions').toBeGreaterThan(0);
  for (const e of decisions) expectDecisionMerged(e, decisions, merged);
  // A miss is a diagnostic of the session whose file holds its call, naming the event with its screen.
  const missDiagnostics = merged.flatMap((m) => m.diagnostics).filter((d) => d.code === 'miss');
  for (const m of misses) expect(missDiagnostics.some((d) => d.message.includes(m.id)), `miss ${m.id} (call ${m.call_id}) in diagnostics[]`).toBe(true);

  const statsRun = await rec(['stats', '--run', ref, '--json', '--no-progress', '--db', o.dbPath], o.env);
  expect(statsRun.status, `rec stats --run ${ref}: ${statsRun.stderr}`).toBe(0);
  const stats = JSON.parse(statsRun.stdout) as StatsReport;
  expectStatsCount(stats, decisions, merged, new Set(misses.map((m) => m.call_id)));
  expect(stats.misses.total, 'rec stats: misses').toBe(misses.length);
  return { decisions, misses, merged, stats };
}

/** The journey of every run the database holds (a scenario's one run, or a few side by side). */
export async function expectJourneys(dbPath: string, env?: NodeJS.ProcessEnv): Promise<Journey[]> {
  const runs = readRuns(dbPath);
  expect(runs.length, `runs in ${dbPath}`).toBeGreaterThan(0);
  const out: Journey[] = [];
  for (const r of runs) out.push(await expectJourney({ dbPath, runId: r.id, ...(env ? { env } : {}) }));
  return out;
}

interface CommandOutcome {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

async function recChild(args: string[], env: NodeJS.ProcessEnv | undefined): Promise<CommandOutcome> {
  const r = spawnSync(REC_BIN, args, { env: { ...process.env, ...env }, encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS, maxBuffer: 64 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function recInProcess([command, ...args]: string[], env: NodeJS.ProcessEnv | undefined): Promise<CommandOutcome> {
  const r = await runCommand(command === 'merge' ? mergeCommand : statsCommand, args, env ?? {});
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The refusal that stood after the call was let through at another prompt (Copilot's URL prompt,
 * then the shell prompt of the same call), as merge's verdict has it: nothing ran, and the entry is
 * that rejection, naming the approval too. Undefined where the call has no such pair.
 */
function refusedAtAnotherPrompt(callId: string | null, all: readonly RecEvent[]): RecEvent | undefined {
  if (callId === null) return undefined;
  const own = all.filter((x) => x.call_id === callId);
  const approval = own.filter((x) => x.type === 'approval').at(-1);
  const rejection = own.find((x) => x.type === 'rejection');
  if (!approval || !rejection || own.some((x) => x.type === 'interruption')) return undefined;
  const apart = rejection.prompt_event_id !== null && rejection.prompt_event_id !== approval.prompt_event_id;
  return apart && rejection.ts >= approval.ts ? rejection : undefined;
}

/**
 * Where merge puts a decision: by its type, except a refusal that came after the call was approved,
 * which is the running call cut short (an interruption), and an approval refused at the next
 * prompt about the same call, which is that refusal's (merge/joinSession.ts verdictFor).
 */
function arrayOf(e: RecEvent, all: readonly RecEvent[]): ArrayName {
  if (e.type === 'skipped') return 'skipped';
  if (e.type === 'interruption') return 'interruptions';
  if (refusedAtAnotherPrompt(e.call_id, all)) return 'rejections';
  if (e.type === 'approval') return 'approvals';
  const approvedBefore = e.call_id !== null && all.some((a) => a.type === 'approval' && a.call_id === e.call_id && a.ts <= e.ts);
  return approvedBefore ? 'interruptions' : 'rejections';
}

function expectDecisionMerged(e: RecEvent, all: readonly RecEvent[], merged: readonly MergedSession[]): void {
  const name = arrayOf(e, all);
  const what = `${e.type} ${e.id} (call ${e.call_id ?? 'none'}, trigger ${e.trigger ?? 'none'})`;
  const entry = merged.flatMap((m) => m[name] as ReadonlyArray<MergedSession[ArrayName][number]>).find((x) => x.sidecar_event_ids.includes(e.id));
  expect(entry, `${what} is in a merged session's ${name}[]`).toBeDefined();
  expect(entry!.sources, what).toContain('sidecar');
  expect(entry!.call_id, what).toBe(e.call_id);
  const fields: Record<string, unknown> = { ...entry };
  const expected: Record<string, unknown> = {};
  if (name === 'approvals') {
    // A call asked about again has one entry, with the answer that stood: the last one.
    const last = all.filter((x) => x.type === 'approval' && x.call_id !== null && x.call_id === e.call_id).at(-1) ?? e;
    Object.assign(expected, { trigger: last.trigger, option_label: last.option_label, scope: last.scope, decided_by: last.decided_by });
  }
  if (name === 'rejections') {
    // An approval the next prompt's refusal overrode is named by that refusal's entry.
    const r = e.type === 'approval' ? refusedAtAnotherPrompt(e.call_id, all)! : e;
    Object.assign(expected, { trigger: r.trigger, option_label: r.option_label, reason: r.reason, reason_source: r.reason_source, decided_by: r.decided_by });
  }
  if (name === 'interruptions') Object.assign(expected, { trigger: e.trigger, ...(e.type === 'interruption' ? { kind: e.kind } : {}) });
  if (name === 'skipped') {
    expected.related_call_id = e.related_call_id;
    // A never-prompted sibling is skipped, never a second refusal.
    const asRejection = merged.flatMap((m) => m.rejections).find((r) => r.call_id !== null && r.call_id === e.call_id);
    expect(asRejection, `${what} is not also a rejection`).toBeUndefined();
  }
  const actual = Object.fromEntries(Object.keys(expected).map((k) => [k, fields[k]]));
  expect(actual, what).toEqual(expected);
}

/**
 * stats counts what the sidecar recorded: refusals by trigger, skipped siblings and interruptions;
 * and, for a call rec missed, what the session file alone says of it.
 */
function expectStatsCount(stats: StatsReport, decisions: readonly RecEvent[], merged: readonly MergedSession[], missed: ReadonlySet<string | null>): void {
  const byTrigger = new Map<string, number>();
  let rejections = 0;
  let interruptions = 0;
  let skipped = 0;
  for (const m of merged) {
    const fileOnly = (e: { call_id: string | null; sources: string[] }) => e.call_id !== null && missed.has(e.call_id) && !e.sources.includes('sidecar');
    for (const r of m.rejections.filter(fileOnly)) {
      rejections++;
      byTrigger.set(r.trigger ?? '(unknown)', (byTrigger.get(r.trigger ?? '(unknown)') ?? 0) + 1);
    }
    interruptions += m.interruptions.filter(fileOnly).length;
    skipped += m.skipped.filter(fileOnly).length;
  }
  for (const e of decisions) {
    const name = arrayOf(e, decisions);
    // An approval a later refusal overrode is that refusal's entry: counted once, as the refusal.
    if (e.type === 'approval') continue;
    if (name === 'rejections') {
      rejections++;
      byTrigger.set(e.trigger ?? '(unknown)', (byTrigger.get(e.trigger ?? '(unknown)') ?? 0) + 1);
    } else if (name === 'interruptions') interruptions++;
    else if (name === 'skipped') skipped++;
  }
  const sorted = (rows: ReadonlyArray<{ key: string; count: number }>) => [...rows].sort((a, b) => (a.key < b.key ? -1 : 1));
  expect(
    {
      rejections: stats.rejections.total,
      by_trigger: sorted(stats.rejections.by_trigger),
      skipped: stats.skipped.total,
      interruptions: stats.interruptions.total,
    },
    // on a mismatch, what merge made of each entry, and where it came from
    `rec stats --run; merged: ${JSON.stringify(merged.map((m) => ({
      rejections: m.rejections.map(brief),
      skipped: m.skipped.map(brief),
      interruptions: m.interruptions.map(brief),
    })))}`,
  ).toEqual({
    rejections,
    by_trigger: sorted([...byTrigger].map(([key, count]) => ({ key, count }))),
    skipped,
    interruptions,
  });
}

function brief(e: { call_id: string | null; sources: string[]; sidecar_event_ids: string[]; timestamp: string | null; native: unknown }): string {
  return `${e.call_id ?? '-'} [${e.sources.join('+')}] ${e.timestamp ?? ''} sidecar=${e.sidecar_event_ids.join(',')} native=${JSON.stringify(e.native)?.slice(0, 120)}`;
}

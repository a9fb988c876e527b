// Recorded sessions of Codex 0.171.0 at an MCP tool's approval form and at its network prompt (under
// managed network requirements) (scripts/record-codex-fixtures.mjs,
// key scripts test/support/codex/promptScenarios.ts), replayed like the other Codex recordings
// (test/support/codex/recordedRun.ts) with the rollout on time and late: the rows the e2e suite
// asserts on the live CLI, and what `rec merge` and `rec stats` make of them.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalRow, promptRow, rejectionRow, view, type RowView } from '../../../support/codex/expectedRows.js';
import { netAlwaysExpected, netKeysExpected } from '../../../support/codex/networkExpected.js';
import type { EventRow } from '../../../support/sidecarRows.js';
import { screenText } from '../../../support/castReplay.js';
import { RECORDED_BY_VERSION, replayRecorded, type RecordedRun, type ReplayOptions } from '../../../support/codex/recordedRun.js';
import { TIMING_POINTS, timingLabel, timingOptions } from '../../../support/timingSweep.js';
import { MCP_CALLS } from '../../../../src/lab/mock/openaiResponses/scenarios.js';

const REPLAY_TIMEOUT_MS = 60_000;
/** As recorded, the rollout 400 ms and 1.5 s behind the screen, then every point of the timing sweep (test/support/timingSweep.ts). */
const TIMINGS: ReadonlyArray<{ readonly label: string; readonly options: Pick<ReplayOptions, 'fileLagMs' | 'keyDelayMs' | 'keysWhileDrawing'> }> = [
  { label: 'rollout on time', options: {} },
  ...[400, 1_500].map((lag) => ({ label: `rollout ${lag} ms late`, options: { fileLagMs: lag } })),
  ...TIMING_POINTS.map((p) => ({ label: timingLabel(p, 'rollout'), options: timingOptions(p) })),
];
const dirOf = (version: string): string => RECORDED_BY_VERSION.find((v) => v.version === version)!.recorded;
/** The MCP form was measured on 0.171.0 only. */
const DIR = dirOf('0.171.0');
/** The network prompt, on both verified versions. */
const NETWORK_VERSIONS = ['0.169.0', '0.171.0'] as const;

const rows = (run: RecordedRun): RowView[] => run.events.map((e) => view(e as unknown as EventRow));

function replay(name: string, timing: Pick<ReplayOptions, 'fileLagMs' | 'keyDelayMs' | 'keysWhileDrawing'>, dir = DIR): Promise<RecordedRun> {
  return replayRecorded(name, { dir, ...timing });
}

/** The merged calls' fates and the rejections merge and stats see. */
function expectJourney(run: RecordedRun, fates: readonly string[], rejected: ReadonlyArray<readonly [string, string]>, kind = 'mcp'): void {
  const merged = run.journey.merged;
  expect(merged.flatMap((m) => m.calls).map((c) => c.fate)).toEqual(fates);
  expect(merged.flatMap((m) => m.rejections).map((x) => [x.call_id, x.rejection_type, x.trigger])).toEqual(rejected.map(([id, trigger]) => [id, kind, trigger]));
  const byKind = run.journey.stats.rejections.by_kind;
  expect(byKind).toEqual(rejected.length ? [{ key: kind, count: rejected.length }] : []);
}


for (const { label, options: timing } of TIMINGS) {
  describe(`codex 0.171.0 MCP tool form, ${label}`, () => {
    it('mcp-keys: Esc and 4 cancel (kind mcp), Enter allows once, 2 allows for the session, the fifth call is not asked', async () => {
      const run = await replay('mcp-keys', timing);
      expect(run.calls).toHaveLength(MCP_CALLS);
      expect(run.calls.every((c) => c.name === 'mcp__marker__touch_marker')).toBe(true);
      const [esc, cancel, enter, session] = run.calls as [typeof run.calls[0], typeof run.calls[0], typeof run.calls[0], typeof run.calls[0]];
      expect(rows(run)).toEqual([
        promptRow('mcp', esc),
        rejectionRow('mcp', esc, { trigger: 'esc', option_label: 'Cancel' }),
        promptRow('mcp', cancel),
        rejectionRow('mcp', cancel, { trigger: 'digit', option_label: 'Cancel' }),
        promptRow('mcp', enter),
        approvalRow('mcp', enter, { trigger: 'enter', option_label: 'Allow', scope: 'once' }),
        promptRow('mcp', session),
        approvalRow('mcp', session, { trigger: 'digit', option_label: 'Allow for this session', scope: 'session' }),
      ]);
      expectJourney(run, ['rejected', 'rejected', 'ran', 'ran', 'ran'], [[esc.callId, 'esc'], [cancel.callId, 'digit']]);
    }, REPLAY_TIMEOUT_MS);

    it('mcp-always: 3 allows always; the four calls after it are not asked', async () => {
      const run = await replay('mcp-always', timing);
      expect(run.calls).toHaveLength(MCP_CALLS);
      const first = run.calls[0]!;
      expect(rows(run)).toEqual([
        promptRow('mcp', first),
        approvalRow('mcp', first, { trigger: 'digit', option_label: 'Always allow', scope: 'always' }),
      ]);
      expectJourney(run, ['ran', 'ran', 'ran', 'ran', 'ran'], []);
    }, REPLAY_TIMEOUT_MS);
  });
}

for (const [version, { label, options: timing }] of NETWORK_VERSIONS.flatMap((v) => TIMINGS.map((t) => [v, t] as const))) {
  describe(`codex ${version} network prompt, ${label}`, () => {
    it('net-keys: y allows once, a for the conversation (the host\'s second fetch is not asked), Esc, n and 4 refuse (kind network)', async () => {
      const run = await replay('net-keys', timing, dirOf(version));
      const expected = netKeysExpected(run.calls);
      expect(run.calls.map((c) => c.args.cmd)).toEqual(expected.commands);
      expect(rows(run)).toEqual(expected.rows);
      expectJourney(run, expected.fates, expected.rejections.map(([id, trigger]) => [id, trigger]), 'network');
    }, REPLAY_TIMEOUT_MS);

    it('net-always: p allows a host in the future; the next turn fetches every host unasked', async () => {
      const run = await replay('net-always', timing, dirOf(version));
      const expected = netAlwaysExpected(run.calls);
      expect(run.calls.map((c) => c.args.cmd)).toEqual(expected.commands);
      expect(rows(run)).toEqual(expected.rows);
      expectJourney(run, expected.fates, [], 'network');
    }, REPLAY_TIMEOUT_MS);
  });
}

describe('codex MCP tool form and network prompt: recorded screens', () => {
  it('the replayed screen equals each recorded frame', async () => {
    const recordings = [['0.171.0', 'mcp-keys'], ['0.171.0', 'mcp-always'], ...NETWORK_VERSIONS.flatMap((v) => [[v, 'net-keys'], [v, 'net-always']])] as const;
    for (const [version, name] of recordings) {
      const run = await replay(name, {}, dirOf(version));
      expect(run.frames.map((f) => f.frame.label)).toContain('final');
      for (const { frame, replayed, replayedSize } of run.frames) {
        expect(`# ${name} ${frame.label} ${replayedSize}\n${replayed}`).toBe(`# ${name} ${frame.label} ${frame.cols}x${frame.rows}\n${screenText(frame.text)}`);
      }
    }
  }, REPLAY_TIMEOUT_MS);
});

describe('codex 0.171.0 MCP tool form: keys it was never measured with', () => {
  it('n and Ctrl+C at the form record nothing (no guessed refusal); Esc after them still cancels', async () => {
    // The recording with `n` then Ctrl+C pressed at the first form, just before its Esc. Codex's
    // output is the recorded one: only what rec makes of the two keys differs.
    const dir = mkdtempSync(join(tmpdir(), 'rec-mcp-keys-'));
    try {
      for (const ext of ['rollout.jsonl', 'requests.jsonl', 'screen.txt']) copyFileSync(join(DIR, `mcp-keys.${ext}`), join(dir, `mcp-keys.${ext}`));
      const lines = readFileSync(join(DIR, 'mcp-keys.cast'), 'utf8').split('\n');
      const esc = lines.findIndex((l) => l.includes('"i","\\u001b"'));
      expect(esc).toBeGreaterThan(0);
      const t = (JSON.parse(lines[esc]!) as [number])[0];
      lines.splice(esc, 0, JSON.stringify([t - 0.2, 'i', 'n']), JSON.stringify([t - 0.1, 'i', '\u0003']));
      writeFileSync(join(dir, 'mcp-keys.cast'), lines.join('\n'));
      const run = await replayRecorded('mcp-keys', { dir });
      const esc1 = run.calls[0]!;
      expect(rows(run).slice(0, 2)).toEqual([promptRow('mcp', esc1), rejectionRow('mcp', esc1, { trigger: 'esc', option_label: 'Cancel' })]);
      expect(run.events.filter((e) => e.type === 'rejection')).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, REPLAY_TIMEOUT_MS);
});

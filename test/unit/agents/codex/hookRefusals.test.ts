// A hook of the user's that refuses a call (Codex 0.171.0, docs/codex-auto-review.md §6): how the
// output names it (or does not), how the screen's `Blocked by hook` cell reads, and the recorder tying
// the two in either order. Screens and rollouts are the real CLI's (test/fixtures/codex/0.171.0/recorded
// hook-*, and the cells of the measured messages below).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harnessRefusalOf } from '../../../../src/agents/codex/harnessRefusal.js';
import { parseCodexScreen } from '../../../../src/agents/codex/screenParser.js';
import { codexStringsFor } from '../../../../src/agents/codex/strings/index.js';
import { readScreenFrames } from '../../../support/castReplay.js';
import { HOOK_MESSAGE } from '../../../support/codex/promptScenarios.js';
import { RECORDED_BY_VERSION } from '../../../support/codex/recordedRun.js';
import { AgentReplay } from '../../../support/codex/sampleReplay.js';
import { screenFromText } from '../../../support/codex/samples.js';

const STRINGS = codexStringsFor('0.171.0');
const DIR = RECORDED_BY_VERSION.find((v) => v.version === '0.171.0')!.recorded;
const rolloutLines = (name: string) => readFileSync(join(DIR, `${name}.rollout.jsonl`), 'utf8').split('\n').filter((l) => l.trim() !== '');
const frame = (name: string, label: string) => screenFromText(readScreenFrames(join(DIR, `${name}.screen.txt`)).find((f) => f.label === label)!.text);
const DECISIONS = ['approval', 'rejection', 'skipped', 'interruption', 'miss'] as const;

/** A screen with a hook's cell as Codex 0.171.0 drew it, between a user's message and the composer. */
function cellScreen(...cellRows: string[]) {
  return screenFromText(['› SCN=review1 write the files', '', '', '• Blocked by hook', ...cellRows, '', '', '› Ask Codex to do anything', ''].join('\n'));
}

describe("the output of a call a hook refused (0.171.0, measured)", () => {
  const rejected = (m: string) => `exec_command failed: CreateProcess { message: "Rejected(\\"${m}\\")" }`;

  it("a PermissionRequest hook's own message names no refuser: a rule's refusal reads the same", () => {
    expect(harnessRefusalOf(rejected('USER-HOOK: writes need a ticket'), STRINGS)).toEqual({ message: 'USER-HOOK: writes need a ticket', rationale: 'USER-HOOK: writes need a ticket' });
    const rule = "`/bin/bash -lc 'npm test'` rejected: policy forbids commands starting with `npm test`";
    expect(harnessRefusalOf(rejected(rule), STRINGS)).toEqual({ message: rule, rationale: rule });
  });

  it("a deny that gave no message has Codex's own words for a hook's refusal", () => {
    expect(harnessRefusalOf(rejected('PermissionRequest hook denied approval'), STRINGS)).toMatchObject({ hook: 'PermissionRequest', message: 'PermissionRequest hook denied approval' });
  });

  it("a PreToolUse hook's block names the hook, its reason up to the command", () => {
    const output = `Command blocked by PreToolUse hook: ${HOOK_MESSAGE}. Command: echo reviewed > reviewed.txt && cat reviewed.txt`;
    expect(harnessRefusalOf(output, STRINGS)).toEqual({ hook: 'PreToolUse', message: HOOK_MESSAGE, rationale: HOOK_MESSAGE });
    expect(harnessRefusalOf(`Command blocked by PreToolUse hook: ${HOOK_MESSAGE}`, STRINGS)).toBeUndefined();
    expect(harnessRefusalOf(output, codexStringsFor('0.169.0'))).toBeUndefined();
  });
});

describe('the `Blocked by hook` cell on screen', () => {
  it('reads each cell of the recorded screen: three refusals with one message', () => {
    expect(parseCodexScreen(frame('hook-deny', 'blocked-3'), STRINGS).hookBlocks).toEqual([HOOK_MESSAGE, HOOK_MESSAGE, HOOK_MESSAGE]);
    expect(parseCodexScreen(frame('hook-block-pretooluse', 'blocked-1'), STRINGS).hookBlocks).toEqual([HOOK_MESSAGE]);
    expect(parseCodexScreen(frame('hook-allow', 'done'), STRINGS).hookBlocks).toEqual([]);
    expect(parseCodexScreen(frame('hook-deny', 'blocked-3'), codexStringsFor('0.169.0')).hookBlocks).toEqual([]);
  });

  it('keeps the rows of a long message wrapped to column 0, and the further lines of one with line breaks', () => {
    // As measured: a long message wraps at a space to column 0; a further line is indented by 4,
    // after a blank row where the message has an empty line.
    const long = cellScreen('  └ MEASURE a long refusal word word word', 'word end.');
    expect(parseCodexScreen(long, STRINGS).hookBlocks).toEqual(['MEASURE a long refusal word word word\nword end.']);
    const lines = cellScreen('  └ MEASURE para one', '', '    para two');
    expect(parseCodexScreen(lines, STRINGS).hookBlocks).toEqual(['MEASURE para one\npara two']);
  });

  it('is not an answer being streamed', () => {
    expect(parseCodexScreen(frame('hook-deny-auto-review', 'blocked-1'), STRINGS).answerText).toBeUndefined();
  });
});

/** A measured run's refused call (test/fixtures/codex/0.171.0/hooks): its rollout lines as Codex wrote them, and its screen. */
function measured(name: string) {
  const hooks = join(DIR, '..', 'hooks');
  const record = readFileSync(join(hooks, `${name}.output-record.jsonl`), 'utf8').trim();
  const output = (JSON.parse(record) as { payload: { call_id: string; output: string } }).payload;
  const call = JSON.stringify({ timestamp: '2026-11-28T23:39:00.000Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"echo reviewed > reviewed.txt && cat reviewed.txt"}', call_id: output.call_id } });
  const meta = rolloutLines('hook-deny-auto-review')[0]!;
  return { rollout: [meta, call, record], callId: output.call_id, output: output.output, screen: screenFromText(readFileSync(join(hooks, `${name}.blocked.screen.txt`), 'utf8')) };
}

describe('a message the screen and the rollout show differently (measured)', () => {
  it.each([
    ['deny-long', 'wrapped over 17 rows on screen, its middle cut out in the rollout'],
    ['deny-lines', 'a line break and a blank line'],
    ['deny-control', 'an escape sequence and a tab'],
  ])('%s (%s): the cell is tied to the refusal', async (name) => {
    const m = measured(name);
    const r = new AgentReplay(name, { rollout: m.rollout });
    r.screen.show(m.screen);
    await r.exit();
    const message = harnessRefusalOf(m.output, STRINGS)!.message;
    expect(r.sink.rows(...DECISIONS)).toEqual([expect.objectContaining({ type: 'rejection', decided_by: 'hook', call_id: m.callId, reason: message, reason_source: 'hook' })]);
  });

  it('the rollout keeps a long message cut in its middle, which the reason keeps as written', () => {
    expect(harnessRefusalOf(measured('deny-long').output, STRINGS)!.message).toMatch(/^MEASURE huge w0 w1 .*…1070 chars truncated….* w399 END$/);
  });
});

describe("the recorder ties a hook's cell to the call refused with its message, in either order", () => {
  const replay = () => new AgentReplay('hook-deny-auto-review', { rollout: rolloutLines('hook-deny-auto-review') });
  const expected = (r: AgentReplay) => [
    expect.objectContaining({
      type: 'rejection',
      kind: 'command',
      decided_by: 'hook',
      trigger: 'hook',
      call_id: r.callIds()[0],
      reason: HOOK_MESSAGE,
      reason_source: 'hook',
      ran: 'no',
      native: expect.objectContaining({ hook: 'PermissionRequest' }),
      evidence: ['screen', 'session_file'],
    }),
  ];

  it('the cell drawn before the rollout writes the refusal', async () => {
    const r = replay();
    r.appendThrough('function_call');
    r.screen.show(frame('hook-deny-auto-review', 'blocked-1'));
    expect(r.sink.rows(...DECISIONS)).toEqual([]);
    await r.exit();
    expect(r.sink.rows(...DECISIONS)).toEqual(expected(r));
  });

  it('the refusal read before the cell is drawn: it waits for the cell', async () => {
    const r = replay();
    r.append();
    expect(r.recorder.watching).toBe(false); // reads what the rollout holds: the turn is over
    expect(r.sink.rows(...DECISIONS)).toEqual([]);
    r.screen.show(frame('hook-deny-auto-review', 'blocked-1'));
    expect(r.sink.rows(...DECISIONS)).toEqual(expected(r));
    await r.exit();
    expect(r.sink.rows(...DECISIONS)).toEqual(expected(r));
  });

  it('with no cell, or a cell with another message, the refusal names no refuser: nothing is recorded, no miss', async () => {
    const r = replay();
    r.screen.show(cellScreen('  └ another hook said no'));
    await r.exit();
    expect(r.sink.rows(...DECISIONS)).toEqual([]);
  });
});

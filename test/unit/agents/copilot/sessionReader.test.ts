// The Copilot reader on hostile and unmeasured input: a torn last line, a corrupt line, a record
// whose data is not what 1.0.102 writes, unknown types, huge fields, and the result kinds of the
// schema no recording holds. Bad input is a diagnostic with its line, never a throw, and the rest
// of the file is still read. Also: the quick path for bookkeeping lines gives what parsing gives.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CopilotEventsReader } from '../../../../src/agents/copilot/sessionReader.js';
import { LineFeeder, type ReaderTable } from '../../../../src/merge/readSession.js';
import { MAX_UNKNOWN_RECORD_CHARS, type NativeSession } from '../../../../src/readers/nativeSession.js';
import { splitJsonlFile } from '../../../../src/readers/jsonlChunks.js';
import { readEventsText, RECORDED_DIR } from '../../../support/copilot/readEvents.js';
import { findUnsafe, HOSTILE } from '../../../support/hostileStrings.js';

const fixture = (name: string): string => readFileSync(`${RECORDED_DIR}${name}.events.jsonl`, 'utf8');
const linesOf = (name: string): string[] => fixture(name).split('\n').filter((l) => l.length > 0);

let seq = 0;
/** One line as Copilot writes it: type and data first, then the envelope's id, timestamp and parent. */
function ev(type: string, data: Record<string, unknown>): string {
  seq++;
  return JSON.stringify({ type, data, id: `id-${seq}`, timestamp: `2026-11-29T03:00:${String(seq % 60).padStart(2, '0')}.000Z`, parentId: seq === 1 ? null : `id-${seq - 1}` });
}

/** A user turn asking for one bash call, up to its prompt. */
function askedBash(callId: string, requestKind = 'shell'): string[] {
  return [
    ev('session.start', { sessionId: '11111111-2222-3333-4444-555555555555', copilotVersion: '1.0.102', context: { cwd: '/w' } }),
    ev('user.message', { content: 'go', messageId: 'm1' }),
    ev('assistant.turn_start', { turnId: '0' }),
    ev('assistant.message', { messageId: 'a1', content: '', toolRequests: [{ toolCallId: callId, name: 'bash', arguments: { command: 'rm x' } }] }),
    ev('tool.execution_start', { toolCallId: callId, toolName: 'bash' }),
    ev('permission.requested', { requestId: 'r1', permissionRequest: { kind: requestKind, toolCallId: callId } }),
  ];
}

const text = (lines: readonly string[], terminated = true): string => lines.join('\n') + (terminated ? '\n' : '');

describe('copilot events.jsonl: bad lines are diagnostics, the rest is read', () => {
  it('a last line cut short is a warning with its line; the decisions before it stand', () => {
    const lines = linesOf('bash-reject-reason');
    const last = lines[lines.length - 1]!;
    const s = readEventsText(text([...lines.slice(0, -1), last.slice(0, last.length >> 1)], false), 'cut.jsonl');
    expect(s.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'truncated_line', file: 'cut.jsonl', line: lines.length })]);
    expect(s.findings.map((f) => [f.type, f.reason])).toEqual([['rejection', 'please use printf instead']]);
  });

  it('a corrupt line in the middle is an error with its line, and the lines after it are read', () => {
    const lines = linesOf('parallel-first-reason');
    const at = lines.findIndex((l) => l.includes('"permission.requested"'));
    lines[at] = '{"type":"permission.requested","data":{"requestId":';
    const s = readEventsText(text(lines), 'corrupt.jsonl');
    expect(s.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'invalid_json', file: 'corrupt.jsonl', line: at + 1 })]);
    // Its prompt's kind is lost; the kind of the refusal falls back to the tool's.
    expect(s.findings.map((f) => [f.type, f.kind, f.call_id])).toEqual([
      ['rejection', 'command', 'toolu_mock_358e023e967c3d7e'],
      ['approval', null, 'toolu_mock_1be6e147954c5dba'],
      ['approval', null, 'toolu_mock_28b1406d5e782f02'],
    ]);
  });

  it('a known type whose data is not as 1.0.102 writes it is a warning naming the type, the field and the line', () => {
    const lines = [...askedBash('c1'), ev('permission.completed', { requestId: 'r1', toolCallId: 'c1', result: { feedback: HOSTILE } })];
    const s = readEventsText(text(lines), 'bad.jsonl');
    expect(s.diagnostics).toEqual([{ severity: 'warning', code: 'invalid_record', message: expect.stringMatching(/^permission\.completed: data\.result\.kind /), file: 'bad.jsonl', line: 7 }]);
    // The file's text is not echoed into the diagnostic.
    expect(findUnsafe(s.diagnostics[0]!.message)).toBeUndefined();
  });

  it('a type 1.0.102 does not write is kept as it is, counted, never an error', () => {
    const odd = ev('session.future_event', { note: HOSTILE });
    const s = readEventsText(text([...askedBash('c1'), odd, '["not", "an", "event"]']));
    expect(s.diagnostics).toEqual([]);
    expect(s.unknown_records).toEqual([
      { type: 'session.future_event', file: 'events.jsonl', line: 7, raw: odd },
      { type: '(untyped)', file: 'events.jsonl', line: 8, raw: '["not", "an", "event"]' },
    ]);
    expect(s.record_counts['session.future_event']).toBe(1);
  });

  it('a huge field is read whole where it is data, and kept short where it is an unknown record', () => {
    const huge = 'x'.repeat(4 * 1024 * 1024);
    const s = readEventsText(text([...askedBash('c1'), ev('user.message', { content: huge }), ev('mystery', { blob: huge })]));
    expect(s.diagnostics).toEqual([]);
    expect(s.messages.at(-1)!.text).toHaveLength(huge.length);
    expect(s.unknown_records[0]!.raw).toHaveLength(MAX_UNKNOWN_RECORD_CHARS);
  });

  it('a file of nothing Copilot writes is no session', () => {
    expect(readEventsText(text(['{"type":"mystery","data":{}}'])).readable).toBe(false);
  });
});

describe('copilot events.jsonl: what the recordings do not hold', () => {
  it('an approved sibling completing after the abort ran: no interruption (docs/copilot.md §4, the tmux run)', () => {
    const lines = linesOf('parallel-second-esc');
    const done = lines.findIndex((l) => l.includes('"tool.execution_complete"'));
    const [complete] = lines.splice(done, 1);
    lines.splice(lines.findIndex((l) => l.includes('"type":"abort"')) + 1, 0, complete!);
    const s = readEventsText(text(lines));
    expect(s.findings.map((f) => [f.type, f.call_id, f.ran])).toEqual([
      ['approval', 'toolu_mock_97e0c9e33be10d6e', 'yes'],
      ['rejection', 'toolu_mock_22591fb2e200f693', 'no'],
      ['skipped', 'toolu_mock_9c0a4530c0016f87', 'no'],
    ]);
  });

  it('the rejected call is the first of the prompt queue (the requests\' order), whatever order the cancels are written in', () => {
    const lines = linesOf('hooks-parallel-esc');
    const at = lines.map((l, i) => (l.includes('"permission.completed"') ? i : -1)).filter((i) => i >= 0);
    const cancels = at.map((i) => lines[i]!).reverse();
    at.forEach((i, k) => (lines[i] = cancels[k]!));
    const s = readEventsText(text(lines));
    expect(s.findings.map((f) => [f.type, f.call_id, f.related_call_id])).toEqual([
      ['rejection', 'toolu_mock_ce257be60c7d6bb2', null],
      ['skipped', 'toolu_mock_2ef9937b04be7ad5', 'toolu_mock_ce257be60c7d6bb2'],
      ['skipped', 'toolu_mock_26b969cb6f6b876c', 'toolu_mock_ce257be60c7d6bb2'],
    ]);
  });

  it('an abort with no turn running (Ctrl+C at the composer) is no finding', () => {
    const s = readEventsText(text([...askedBash('c1').slice(0, 2), ev('abort', { reason: 'user_initiated' })]));
    expect(s.findings).toEqual([]);
  });

  it('a cancel the file never closes with an abort is still the prompted call\'s rejection, its decider untold', () => {
    const s = readEventsText(text([...askedBash('c1'), ev('permission.completed', { requestId: 'r1', toolCallId: 'c1', result: { kind: 'cancelled', reason: 'Session aborted' } })]));
    expect(s.findings.map((f) => [f.type, f.kind, f.decided_by, f.undetermined])).toEqual([['rejection', 'command', null, ['trigger', 'reason_source', 'decided_by']]]);
  });

  it.each([
    ['denied-by-rules', {}, { type: 'rejection', decided_by: 'rule', kind: 'command', undetermined: [] }],
    ['denied-by-permission-request-hook', { message: 'no rm' }, { type: 'rejection', decided_by: 'hook', reason: 'no rm', reason_source: 'hook', undetermined: [] }],
    ['denied-by-content-exclusion-policy', {}, { type: 'rejection', decided_by: null, undetermined: ['trigger', 'decided_by'] }],
    ['approved-for-session', {}, { type: 'approval', scope: null, decided_by: 'user', undetermined: ['trigger', 'scope'] }],
    ['approved-by-something-new', {}, { type: 'unknown', possible: ['rejection', 'skipped', 'ran'], undetermined: ['type', 'kind', 'trigger', 'decided_by', 'ran'] }],
    ['cancelled', { reason: 'Something else' }, { type: 'unknown' }],
  ])('result kind %s (in the schema or new, never measured)', (kind, extra, expected) => {
    const s = readEventsText(text([...askedBash('c1'), ev('permission.completed', { requestId: 'r1', toolCallId: 'c1', result: { kind, ...extra }, decisionSource: 'human_response' })]));
    expect(s.findings).toEqual([expect.objectContaining({ call_id: 'c1', ...expected })]);
    // Copilot's own result is kept whole, whatever rec made of it.
    expect(JSON.stringify(s.findings[0]!.native)).toContain(JSON.stringify({ kind, ...extra }));
  });

  it('a decision by a source other than a person\'s answer leaves its decider untold', () => {
    const s = readEventsText(text([...askedBash('c1'), ev('permission.completed', { requestId: 'r1', toolCallId: 'c1', result: { kind: 'approved' }, decisionSource: 'assisted_approval' })]));
    expect(s.findings).toEqual([expect.objectContaining({ type: 'approval', decided_by: null, scope: 'once', undetermined: ['trigger', 'decided_by'] })]);
  });

  it('a refusal with code "denied" in words not measured, and no decision event: a rejection whose decider is untold', () => {
    const lines = [...askedBash('c1').filter((l) => !l.includes('permission.requested')), ev('tool.execution_complete', { toolCallId: 'c1', success: false, error: { code: 'denied', message: HOSTILE } })];
    const s = readEventsText(text(lines));
    expect(s.findings).toEqual([expect.objectContaining({ type: 'rejection', kind: null, decided_by: null, ran: 'no', undetermined: ['kind', 'trigger', 'decided_by', 'reason'] })]);
    expect(s.calls[0]!.fate).toBe('unknown');
  });
});

describe('copilot events.jsonl: the quick path', () => {
  const names = readdirSync(RECORDED_DIR).filter((f) => f.endsWith('.events.jsonl'));
  const parsedOnly: ReaderTable = {
    copilot: (file: string) => {
      const r = new CopilotEventsReader(file);
      return { add: (rec: unknown, lineNo: number, raw: string) => r.add(rec, lineNo, raw), finish: () => r.finish() };
    },
  };
  let quickTaken = 0;
  const counted: ReaderTable = {
    copilot: (file: string) => {
      const r = new CopilotEventsReader(file);
      return { add: (rec: unknown, lineNo: number, raw: string) => r.add(rec, lineNo, raw), quickLine: (t: string, n: number) => r.quickLine(t) && ++quickTaken > 0 && n > 0, finish: () => r.finish() };
    },
  };
  const readWith = async (file: string, readers: ReaderTable): Promise<NativeSession> => {
    const feeder = new LineFeeder(file, 'copilot', readers);
    await splitJsonlFile(file, (line) => feeder.feed(line));
    return feeder.finish()!;
  };

  it.each(names)('%s: the same session whether bookkeeping lines are parsed or taken by their text', async (name) => {
    const file = `${RECORDED_DIR}${name}`;
    expect(await readWith(file, counted)).toEqual(await readWith(file, parsedOnly));
  });

  it('takes the bookkeeping lines of the recordings, and leaves a line of another layout to the parser', async () => {
    quickTaken = 0;
    await readWith(`${RECORDED_DIR}bash-approve-digit.events.jsonl`, counted);
    expect(quickTaken).toBeGreaterThanOrEqual(5);
    const r = new CopilotEventsReader('x');
    expect(r.quickLine('{"type":"session.usage_record","data":{},"id":"a","timestamp":"t","parentId":null,"ephemeral":true}')).toBe(false);
    expect(r.quickLine('{"type":"permission.completed","data":{},"id":"a","timestamp":"t","parentId":null}')).toBe(false);
  });
});

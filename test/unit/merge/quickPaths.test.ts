// The readers' fast paths (lines taken from their leading bytes without parsing, hand checks
// instead of zod) give exactly what parsing every line and checking it with zod gives, and a
// record that fails a hand check is still reported with its file and line.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadReaders, readSessionFile } from '../../../src/merge/readSession.js';
import type { NativeSession } from '../../../src/readers/nativeSession.js';
import { logFile, LOGS } from '../../support/fixturePaths.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';
import { pinnedVersion } from '../../support/agentVersions.js';

/** Verified versions: these files must give no unknown_version warning, only the diagnostics asserted. */
const CODEX_VERSION = pinnedVersion('codex');
const CLAUDE_VERSION = pinnedVersion('claude');

const dir = mkdtempSync(join(tmpdir(), 'rec-quick-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Agent = string;

/** Every line parsed and handed to the reader: no quick lines. */
async function readAllParsed(agent: Agent, file: string): Promise<NativeSession> {
  const reader = (await loadReaders())[agent](file);
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((text, i) => {
    if (text.length > 0) reader.add(JSON.parse(text), i + 1, text);
  });
  return reader.finish();
}

function write(name: string, lines: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return file;
}

describe('reader fast paths', () => {
  for (const agent of AGENT_NAMES) {
    it(`${agent}: every recorded fixture reads the same with the fast paths as fully parsed`, async () => {
      const names = readdirSync(join(LOGS, agent)).filter((n) => n.endsWith('.jsonl'));
      expect(names.length).toBeGreaterThan(3);
      for (const name of names) {
        const file = logFile(agent, name);
        const fast = await readSessionFile(file, agent);
        expect(fast.session, name).not.toBeNull();
        expect(fast.session, name).toEqual(await readAllParsed(agent, file));
      }
    });
  }

  it('codex 0.169 lines (with their ordinal) are taken unparsed: bookkeeping counted, item_completed marks its call ran', async () => {
    const ts = '2026-11-22T09:28:01.000Z';
    const file = write('rollout-quick.jsonl', [
      { timestamp: ts, ordinal: 0, type: 'session_meta', payload: { id: 's1', cli_version: '0.169.0', cwd: '/w' } },
      { timestamp: ts, ordinal: 1, type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'c1' } },
      // Unparseable after its header: only a line taken from its leading bytes gets through.
      `{"timestamp":"2026-11-22T09:28:02.000Z","ordinal":2,"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"u","item":{"type":"CommandExecution","id":"c1",BROKEN}}}`,
      `{"timestamp":"2026-11-22T09:28:09.000Z","ordinal":3,"type":"event_msg","payload":{"type":"token_count",BROKEN}}`,
    ]);
    const r = await readSessionFile(file);
    expect(r.session!.diagnostics).toEqual([]);
    expect(r.session!.calls.map((c) => [c.call_id, c.fate])).toEqual([['c1', 'ran']]);
    expect(r.session!.record_counts).toMatchObject({ 'event_msg:item_completed': 1, 'event_msg:token_count': 1 });
    expect(r.session!.ended_at).toBe('2026-11-22T09:28:09.000Z');
  });

  it('a codex line cut short is parsed, so it is reported, even when its header looks like a quick one', async () => {
    const file = join(dir, 'rollout-cut.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ timestamp: 't', type: 'session_meta', payload: { id: 's1', cli_version: CODEX_VERSION } })}\n{"timestamp":"t","ordinal":1,"type":"event_msg","payload":{"type":"token_count"}`,
    );
    const r = await readSessionFile(file);
    expect(r.session!.diagnostics).toEqual([expect.objectContaining({ code: 'truncated_line', file, line: 2 })]);
  });

  it('a record that fails a hand check goes through zod and is reported with file and line (each agent)', async () => {
    const codex = write('rollout-bad.jsonl', [
      { timestamp: 't', type: 'session_meta', payload: { id: 's1', cli_version: CODEX_VERSION } },
      { timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'user', content: 'not an array' } },
      { timestamp: 't', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', call_id: 7 } },
      { timestamp: 't', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1' } },
    ]);
    const c = await readSessionFile(codex);
    expect(c.session!.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['invalid_record', codex, 2],
      ['invalid_record', codex, 3],
      ['invalid_record', codex, 4],
    ]);
    expect(c.session!.diagnostics[0]!.message).toContain('response_item:message: content');

    const claude = write('claude-bad.jsonl', [
      { type: 'user', uuid: 'u1', sessionId: 's', version: CLAUDE_VERSION, message: { role: 'user', content: 'hi' } },
      { type: 'assistant', uuid: 'u2', sessionId: 's', message: { id: 7, content: [] } },
      { type: 'user', uuid: 'u3', sessionId: 's', permissionDecision: { source: 'user' }, message: { role: 'user', content: 'x' } },
    ]);
    const cl = await readSessionFile(claude, 'claude');
    expect(cl.session!.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['invalid_record', claude, 2],
      ['invalid_record', claude, 3],
    ]);
    expect(cl.session!.messages.map((m) => m.text)).toEqual(['hi']);

    const gemini = write('session-bad.jsonl', [
      { sessionId: 's1', projectHash: 'h', startTime: 't' },
      { id: 'm1', type: 'user', content: [{ text: 'hi' }] },
      { id: 'm2', type: 'gemini', toolCalls: [{ id: 'c1', name: 7 }] },
    ]);
    const g = await readSessionFile(gemini);
    expect(g.session!.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([['invalid_record', gemini, 3]]);
    expect(g.session!.messages.map((m) => m.text)).toEqual(['hi']);
  });

  it('gemini: a lastUpdated-only $set line is taken unparsed only when the whole line has that form', async () => {
    const file = write('session-quick.jsonl', [
      { sessionId: 's1', projectHash: 'h', startTime: '2026-11-22T09:00:00.000Z' },
      { id: 'm1', timestamp: '2026-11-22T09:00:01.000Z', type: 'user', content: [{ text: 'hi' }] },
      '{"$set":{"lastUpdated":"2026-11-22T09:00:05.000Z"}}',
      '{"$set":{"lastUpdated":"2026-11-22T09:00:09.000Z"}}x',
    ]);
    const g = (await readSessionFile(file)).session!;
    expect(g.record_counts['$set']).toBe(1);
    expect(g.ended_at).toBe('2026-11-22T09:00:05.000Z');
    expect(g.diagnostics.map((d) => [d.code, d.line])).toEqual([['invalid_json', 4]]);
  });

  it("claude: permissionDecision is shown with zod's key order whatever the file's order", async () => {
    const file = write('claude-order.jsonl', [
      { type: 'assistant', uuid: 'a1', sessionId: 's', message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] } },
      {
        type: 'user',
        uuid: 'u1',
        sessionId: 's',
        permissionDecision: { reasonCode: 'x', grantScope: 'once', source: 'user_temporary', decision: 'accept' },
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
      },
    ]);
    const r = await readSessionFile(file, 'claude');
    const native = r.session!.findings[0]!.native as { permissionDecision: object };
    expect(Object.keys(native.permissionDecision)).toEqual(['decision', 'source', 'grantScope', 'reasonCode']);
  });
});

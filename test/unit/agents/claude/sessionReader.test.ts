import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSessionFile } from '../../../../src/merge/readSession.js';
import { logFile } from '../../../support/fixturePaths.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-claude-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(name: string) {
  const r = await readSessionFile(logFile('claude', name));
  expect(r.session, JSON.stringify(r.diagnostics)).not.toBeNull();
  return r.session!;
}

const REJECT_STOP =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

describe('claude 2.1.328 transcripts (recorded against a mock model)', () => {
  it('joins the one-line-per-block assistant message back into one message', async () => {
    const s = await read('13-parallel-reject-first-No.jsonl');
    const a = s.messages.filter((m) => m.role === 'assistant');
    expect(a).toHaveLength(1);
    expect(a[0]).toMatchObject({ text: 'Creating three things in parallel.', native_id: 'msg_mockmwrn1lop000j' });
    expect(a[0]!.tool_calls.map((c) => c.tool_name)).toEqual(['Write', 'Write', 'Bash']);
  });

  it('in a refused batch the first call is the rejection and the unprompted siblings are skipped (by order)', async () => {
    const s = await read('13-parallel-reject-first-No.jsonl');
    expect(s.findings.map((f) => [f.type, f.call_id, f.related_call_id, f.undetermined])).toEqual([
      ['rejection', 'toolu_mockmwrn1lou000k', null, ['trigger']],
      ['skipped', 'toolu_mockmwrn1lpa000l', 'toolu_mockmwrn1lou000k', ['type']],
      ['skipped', 'toolu_mockmwrn1lpq000m', 'toolu_mockmwrn1lou000k', ['type']],
    ]);
  });

  it('a rejection with a reason carries it inline (userFeedback)', async () => {
    const s = await read('05-bash-reject-with-reason.jsonl');
    expect(s.findings).toEqual([
      expect.objectContaining({ type: 'rejection', kind: 'command', decided_by: 'user', reason: 'please use printf instead', reason_source: 'inline', ran: 'no' }),
    ]);
  });

  it('approve, reject with reason, then Esc in one batch: approval, rejection with reason, rejection', async () => {
    const s = await read('14-parallel-yes-reason-Esc.jsonl');
    expect(s.findings.map((f) => [f.type, f.reason, f.scope])).toEqual([
      ['approval', null, 'once'],
      ['rejection', 'b should be uppercase', null],
      ['rejection', null, null],
    ]);
  });

  it("an approval's native evidence is the permission decision, not a second copy of the tool's output", async () => {
    const s = await read('14-parallel-yes-reason-Esc.jsonl');
    const approval = s.findings.find((f) => f.type === 'approval')!;
    expect(approval.native).toEqual({ permissionDecision: expect.objectContaining({ decision: 'accept' }) });
    // The output is where it belongs: in the conversation, as the call's result.
    const results = s.messages.flatMap((m) => m.tool_results).filter((r) => r.call_id === approval.call_id);
    expect(results).toHaveLength(1);
    expect(results[0]!.output).toBeTruthy();
    // A rejection keeps its content: the refusal text is the evidence.
    const rejection = s.findings.find((f) => f.type === 'rejection')!;
    expect(rejection.native).toHaveProperty('content');
  });

  it('Esc while an approved command runs is an interruption of the tool, not a rejection', async () => {
    const s = await read('07-bash-running-Esc.jsonl');
    expect(s.findings).toEqual([expect.objectContaining({ type: 'interruption', kind: 'tool', call_id: 'toolu_mockmwrn0kg20003', ran: 'yes' })]);
  });

  it('Esc while an Agent call runs is an interruption of a subagent', async () => {
    const s = await read('23-agent-main-Esc-while-Agent-runs.jsonl');
    expect(s.findings).toEqual([expect.objectContaining({ type: 'interruption', kind: 'subagent' })]);
  });

  it('a cut stream keeps its partial text as partial_output, pointing at the cut message', async () => {
    const s = await read('09-text-streaming-Esc.jsonl');
    const f = s.findings[0]!;
    expect(f).toMatchObject({ type: 'interruption', kind: 'response', call_id: null });
    expect(f.partial_output).toMatch(/^word0 word1 word2 /);
    expect(s.messages[f.interrupted_message_index!]!.native_id).toBe('msg_mockmwrn2s7y001e');
  });

  it('deny rules and PreToolUse hooks are permission rejections decided by a rule or a hook', async () => {
    expect((await read('19-deny-rule.jsonl')).findings).toEqual([expect.objectContaining({ type: 'rejection', kind: 'permission', decided_by: 'rule' })]);
    expect((await read('20-pretooluse-hook-deny.jsonl')).findings).toEqual([expect.objectContaining({ type: 'rejection', kind: 'permission', decided_by: 'hook' })]);
  });

  it('a -p auto-deny says user-rejected but no person decided: decided_by config', async () => {
    expect((await read('25-print-mode-auto-deny.jsonl')).findings).toEqual([expect.objectContaining({ type: 'rejection', decided_by: 'config' })]);
  });

  it('counts bookkeeping lines and keeps none of them raw', async () => {
    const s = await read('00-one-line-of-each-type.jsonl');
    expect(s.record_counts).toMatchObject({ mode: 1, 'permission-mode': 1, 'api-request-blob': 1, 'cost-state': 1 });
    expect(s.unknown_records).toEqual([]);
    expect(s.agent_version).toBe('2.1.328');
  });

  it('a subagent transcript names its agent and the parent Agent call from its meta file', async () => {
    const s = await read('0401ac34/subagents/agent-aa78430550d003251.jsonl');
    expect(s.subagent).toEqual({ agent_id: 'aa78430550d003251', parent_call_id: 'toolu_mockmwrn7n7y0003' });
    expect(s.findings).toEqual([expect.objectContaining({ type: 'rejection', call_id: 'toolu_mockmwrn7nnv0007', decided_by: 'user' })]);
  });

  it('without toolDenialKind (older versions) falls back to the text, never for MCP tools', async () => {
    const file = join(dir, 'old.jsonl');
    const line = (o: object): string => JSON.stringify(o);
    writeFileSync(
      file,
      [
        line({ type: 'user', uuid: 'u1', sessionId: 's', message: { role: 'user', content: 'go' } }),
        line({ type: 'assistant', uuid: 'a1', sessionId: 's', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] } }),
        line({ type: 'assistant', uuid: 'a2', sessionId: 's', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'mcp__x__y', input: {} }] } }),
        line({ type: 'user', uuid: 'u2', sessionId: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: `${REJECT_STOP.split(' STOP')[0]} To tell you how to proceed, the user said:\nuse ls -la` }] } }),
        line({ type: 'user', uuid: 'u3', sessionId: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', is_error: true, content: REJECT_STOP }] } }),
      ].join('\n') + '\n',
    );
    const s = (await readSessionFile(file, 'claude')).session!;
    expect(s.findings).toEqual([expect.objectContaining({ type: 'rejection', call_id: 't1', reason: 'use ls -la', reason_source: 'inline' })]);
    expect(s.calls.find((c) => c.call_id === 't2')!.fate).toBe('ran');
  });
});

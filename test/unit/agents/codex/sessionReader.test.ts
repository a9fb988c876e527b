import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAbortedOutput as isAbortedWith } from '../../../../src/agents/codex/sessionRecords.js';
import { LATEST_CODEX_STRINGS } from '../../../../src/agents/codex/strings/index.js';
import { readSessionFile } from '../../../../src/merge/readSession.js';
import { logFile } from '../../../support/fixturePaths.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-codex-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(name: string) {
  const r = await readSessionFile(logFile('codex', name));
  expect(r.session, JSON.stringify(r.diagnostics)).not.toBeNull();
  return r.session!;
}

describe('codex 0.169.0 rollouts (recorded against a mock model)', () => {
  it('reads the session meta: id, version, cwd, start and end', async () => {
    const s = await read('shell-deny-esc.rollout.jsonl');
    expect(s).toMatchObject({
      agent: 'codex',
      agent_version: '0.169.0',
      session_id: '01a20297-0b6a-77a0-a475-841e109138f8',
      cwd: '$BASE/work',
      started_at: '2026-11-22T09:29:43.029Z',
    });
    expect(s.diagnostics).toEqual([]);
  });

  it('"aborted by user" marks an output only as its whole last line (the regex it replaces agrees; the live recorder and merge use this one rule)', () => {
    const regex = /(^|\n)aborted by user\s*$/;
    const isAbortedOutput = (c: string) => isAbortedWith(c, LATEST_CODEX_STRINGS);
    const cases = [
      'aborted by user',
      'Wall time: 1.6 seconds\naborted by user',
      'aborted by user\n',
      'x\naborted by user \t\n\u00a0',
      'xaborted by user',
      'aborted by user x',
      'aborted by users',
      'Aborted by user',
      '',
      '\n',
      `${'output line\n'.repeat(50)}aborted by user`,
      'aborted by user\naborted by user',
      'aborted by\nuser',
    ];
    for (const c of cases) expect(isAbortedOutput(c), JSON.stringify(c)).toBe(regex.test(c));
    expect(cases.filter(isAbortedOutput)).toHaveLength(6);
  });

  it('an "aborted by user" output is of unknown fate without a sidecar: rejected, interrupted or skipped', async () => {
    const s = await read('shell-deny-esc.rollout.jsonl');
    expect(s.findings).toEqual([
      expect.objectContaining({
        type: 'unknown',
        call_id: 'call_bd8088d34ab72013',
        possible: ['rejection', 'interruption', 'skipped'],
        ran: 'unknown',
        native: { output: 'Wall time: 1.6 seconds\naborted by user', turn_aborted: 'interrupted' },
      }),
    ]);
    expect(s.calls).toEqual([expect.objectContaining({ call_id: 'call_bd8088d34ab72013', tool_name: 'exec_command', fate: 'unknown' })]);
  });

  it('normalises messages: user text, harness blocks marked synthetic, the call and its output', async () => {
    const s = await read('shell-deny-esc.rollout.jsonl');
    const roles = s.messages.map((m) => `${m.role}${m.synthetic ? '*' : ''}`);
    expect(roles).toEqual(['system*', 'user*', 'user', 'assistant', 'tool', 'user*', 'user', 'assistant']);
    expect(s.messages[2]!.text).toBe('SCN=shell please write the file');
    expect(s.messages[3]!.tool_calls[0]).toMatchObject({
      call_id: 'call_bd8088d34ab72013',
      tool_input: { cmd: 'echo hello > $BASE/work/approved.txt && cat $BASE/work/approved.txt', justification: 'Write approved.txt in the workspace?' },
    });
    expect(s.messages[5]!.text).toMatch(/^<turn_aborted>/);
  });

  it('an approved call that produced output ran; no finding', async () => {
    const s = await read('shell-approve.rollout.jsonl');
    expect(s.findings).toEqual([]);
    expect(s.calls.map((c) => c.fate)).toEqual(['ran']);
  });

  it('parallel calls of one response share one assistant message, each aborted call is its own unknown', async () => {
    const s = await read('parallel-approve-deny.rollout.jsonl');
    const withCalls = s.messages.filter((m) => m.tool_calls.length > 0);
    expect(withCalls).toHaveLength(1);
    expect(withCalls[0]!.tool_calls.map((c) => c.call_id)).toEqual(['call_e1ccd69ce04e9d91', 'call_0dc7b07af1361e99', 'call_07f86a5175e92cb6']);
    expect(s.findings.map((f) => [f.type, f.call_id, f.message_index])).toEqual([
      ['unknown', 'call_e1ccd69ce04e9d91', withCalls[0]!.index],
      ['unknown', 'call_0dc7b07af1361e99', withCalls[0]!.index],
      ['unknown', 'call_07f86a5175e92cb6', withCalls[0]!.index],
    ]);
  });

  it('a turn_aborted with no aborted call is a cut response whose partial text Codex does not keep', async () => {
    const s = await read('text-esc-while-streaming.rollout.jsonl');
    expect(s.findings).toEqual([
      expect.objectContaining({ type: 'interruption', call_id: null, kind: 'response', undetermined: ['kind', 'trigger', 'partial_output'] }),
    ]);
  });

  it('a call with no output at all (the TUI was killed at the prompt) stays of unknown fate, with no finding', async () => {
    const s = await read('tui-killed-at-prompt.rollout.jsonl');
    expect(s.calls.map((c) => c.fate)).toEqual(['unknown']);
    expect(s.findings).toEqual([]);
  });

  it('keeps an unknown record type raw and counts it, without an error', async () => {
    const file = join(dir, 'rollout-unknown.jsonl');
    const lines = readFileSync(logFile('codex', 'shell-approve.rollout.jsonl'), 'utf8').trimEnd().split('\n');
    lines.splice(2, 0, '{"timestamp":"2026-11-22T09:29:44.000Z","type":"future_thing","payload":{"x":1}}');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await readSessionFile(file);
    expect(r.session!.record_counts['future_thing']).toBe(1);
    expect(r.session!.unknown_records).toEqual([
      { type: 'future_thing', file, line: 3, raw: '{"timestamp":"2026-11-22T09:29:44.000Z","type":"future_thing","payload":{"x":1}}' },
    ]);
    expect(r.session!.diagnostics).toEqual([]);
  });

  it('reports a version it was not measured against, and reads the file anyway', async () => {
    const file = join(dir, 'rollout-version.jsonl');
    const text = readFileSync(logFile('codex', 'shell-approve.rollout.jsonl'), 'utf8').replace('"cli_version":"0.169.0"', '"cli_version":"0.999.1"');
    writeFileSync(file, text);
    const r = await readSessionFile(file);
    expect(r.session!.diagnostics).toEqual([expect.objectContaining({ code: 'unknown_version', severity: 'warning', file, line: 1 })]);
    expect(r.session!.calls.map((c) => c.fate)).toEqual(['ran']);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSessionFile } from '../../../../src/merge/readSession.js';
import { logFile } from '../../../support/fixturePaths.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-gemini-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(name: string) {
  const r = await readSessionFile(logFile('gemini', name));
  expect(r.session, JSON.stringify(r.diagnostics)).not.toBeNull();
  return r.session!;
}

describe('gemini 0.61.0 sessions (recorded against a mock model)', () => {
  it('a denied edit is a rejection of kind edit; the rolled-back turn is kept and marked rewound', async () => {
    const s = await read('edit-esc.session.jsonl');
    expect(s.session_id).toBe('a7479d23-d5a2-4af2-ab67-ef0d4bd2d1c7');
    expect(s.findings).toEqual([
      expect.objectContaining({
        type: 'rejection',
        call_id: 'replace__replace_1795339966373_0',
        kind: 'edit',
        decided_by: 'user',
        ran: 'no',
        undetermined: ['trigger'],
        native: { status: 'cancelled', error: '[Operation Cancelled] Reason: User denied execution.' },
      }),
    ]);
    const call = s.messages.find((m) => m.tool_calls.length > 0)!;
    expect(call.rewound).toBe(true);
    expect(call.tool_calls[0]!.tool_input).toMatchObject({ old_string: 'old line', new_string: 'new line' });
  });

  it('the last re-appended version of a message wins, at the place of the first', async () => {
    const s = await read('edit-esc.session.jsonl');
    const assistants = s.messages.filter((m) => m.role === 'assistant');
    expect(assistants).toHaveLength(1);
    expect(assistants[0]!.tool_calls).toHaveLength(1);
  });

  it('a queued sibling cancelled with a denial is skipped, related to the denied call', async () => {
    const s = await read('parallel-esc-first.session.jsonl');
    const byId = Object.fromEntries(s.findings.map((f) => [f.call_id, f]));
    expect(byId['write_file__write_file_1795339871947_0']).toMatchObject({ type: 'rejection', kind: 'edit' });
    expect(byId['write_file__write_file_1795339872100_1']).toMatchObject({
      type: 'skipped',
      related_call_id: 'write_file__write_file_1795339871947_0',
      ran: 'no',
    });
  });

  it('"Operation cancelled by user" is an interruption whose kind (at the dialog or while running) the file cannot tell', async () => {
    for (const name of ['long-esc-running.session.jsonl', 'shell-ctrlc.session.jsonl']) {
      const s = await read(name);
      expect(s.findings).toEqual([expect.objectContaining({ type: 'interruption', kind: null, undetermined: ['kind', 'trigger', 'ran'] })]);
    }
  });

  it('"Request cancelled." with no cancelled call is a cut response', async () => {
    const s = await read('stream-esc.session.jsonl');
    expect(s.findings).toEqual([expect.objectContaining({ type: 'interruption', kind: 'response', call_id: null })]);
    expect(s.messages[s.findings[0]!.message_index!]!.text).toBe('Request cancelled.');
  });

  it('an approved call that succeeded ran', async () => {
    const s = await read('shell-approve-enter.session.jsonl');
    expect(s.findings).toEqual([]);
    expect(s.calls.map((c) => c.fate)).toEqual(['ran']);
  });

  it('$rewindTo marks that message and everything after it as rewound', async () => {
    const file = join(dir, 'session-rewind.jsonl');
    writeFileSync(
      file,
      [
        '{"sessionId":"s1","projectHash":"h","startTime":"2026-01-01T00:00:00.000Z","lastUpdated":"2026-01-01T00:00:00.000Z","kind":"main"}',
        '{"id":"u1","timestamp":"2026-01-01T00:00:01.000Z","type":"user","content":[{"text":"first"}]}',
        '{"id":"g1","timestamp":"2026-01-01T00:00:02.000Z","type":"gemini","content":"answer"}',
        '{"id":"u2","timestamp":"2026-01-01T00:00:03.000Z","type":"user","content":[{"text":"second"}]}',
        '{"$rewindTo":"u2"}',
      ].join('\n') + '\n',
    );
    const s = (await readSessionFile(file)).session!;
    expect(s.messages.map((m) => [m.text, m.rewound])).toEqual([
      ['first', false],
      ['answer', false],
      ['second', true],
    ]);
  });

  it('reads the older single-JSON form', async () => {
    const file = join(dir, 'session-2025-01-01T00-00-abcd.json');
    writeFileSync(
      file,
      JSON.stringify(
        {
          sessionId: 'legacy-1',
          projectHash: 'h',
          startTime: '2025-01-01T00:00:00.000Z',
          lastUpdated: '2025-01-01T00:01:00.000Z',
          messages: [
            { id: 'u1', timestamp: '2025-01-01T00:00:01.000Z', type: 'user', content: [{ text: 'do it' }] },
            {
              id: 'g1',
              timestamp: '2025-01-01T00:00:02.000Z',
              type: 'gemini',
              content: '',
              toolCalls: [
                {
                  id: 'run_shell_command__x_0',
                  name: 'run_shell_command',
                  args: { command: 'rm -rf build' },
                  status: 'cancelled',
                  result: [{ functionResponse: { id: 'run_shell_command__x_0', name: 'run_shell_command', response: { error: '[Operation Cancelled] Reason: User denied execution.' } } }],
                },
              ],
            },
          ],
        },
        null,
        2,
      ),
    );
    const s = (await readSessionFile(file)).session!;
    expect(s.session_id).toBe('legacy-1');
    expect(s.findings).toEqual([expect.objectContaining({ type: 'rejection', kind: 'command', call_id: 'run_shell_command__x_0' })]);
    expect(s.messages[0]!.source).toEqual({ file, line: 0 });
  });
});

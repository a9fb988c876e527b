// The mapping of a decoded event to an OTLP log record: Claude's decision and source values where
// they fit, rec's own attributes, a type other than a decision sent under its own name, and the
// text left out unless asked for while file paths stay. (Rows the events codec cannot read never
// get here: test/integration/export/unreadable.test.ts.)
import { describe, expect, it } from 'vitest';
import { filePaths, toLogRecord } from '../../../src/export/otlpRecord.js';
import type { ExportedEvent } from '../../../src/store/exportCursor.js';

const BASE: ExportedEvent = {
  id: 'ev1', run_id: 'run1', agent: 'claude', agent_version: '2.1.332', agent_session_id: 's1', ts: '2026-11-22T09:30:47.123Z',
  type: 'rejection', kind: 'command', call_id: 'toolu_1', tool_name: 'Bash', tool_input: { command: 'rm -rf build', description: 'clean' },
  decided_by: 'user', trigger: 'letter', option_label: 'No', scope: null, reason: 'not now', reason_source: 'inline',
  related_call_id: null, ran: 'no', partial_output: null, agent_version_verified: true,
};

const attrs = (row: Partial<ExportedEvent>, includeText = false) => toLogRecord({ ...BASE, ...row }, { includeText }).attributes;

describe('toLogRecord', () => {
  it("keeps the event's own time to the millisecond", () => {
    expect(toLogRecord(BASE, { includeText: false }).time).toEqual([Math.floor(Date.parse(BASE.ts) / 1000), 123_000_000]);
  });

  it.each([
    [{ type: 'rejection', trigger: 'letter' }, 'reject', 'user_reject'],
    [{ type: 'rejection', trigger: 'digit' }, 'reject', 'user_reject'],
    [{ type: 'rejection', trigger: 'esc' }, 'reject', 'user_abort'],
    [{ type: 'rejection', trigger: 'ctrl_c' }, 'reject', 'user_abort'],
    [{ type: 'rejection', decided_by: 'rule', trigger: 'rule' }, 'reject', 'config'],
    [{ type: 'rejection', decided_by: 'hook', trigger: 'hook' }, 'reject', 'hook'],
    [{ type: 'approval', scope: 'once' }, 'accept', 'user_temporary'],
    [{ type: 'approval', scope: 'session' }, 'accept', 'user_temporary'],
    [{ type: 'approval', scope: 'always' }, 'accept', 'user_permanent'],
    [{ type: 'approval', decided_by: 'config' }, 'accept', 'config'],
    [{ type: 'approval', decided_by: 'reviewer' }, 'accept', 'classifier'],
    [{ type: 'skipped' }, undefined, undefined],
    [{ type: 'interruption', kind: 'tool', trigger: 'esc' }, undefined, undefined],
  ] as const)('%o → decision %s, source %s', (row, decision, source) => {
    const a = attrs(row);
    expect(a.decision).toBe(decision);
    expect(a.source).toBe(source);
  });

  it('names decisions rec.tool_decision, interruptions rec.interruption, and any other type rec.<type>', () => {
    expect(attrs({ type: 'skipped' })['event.name']).toBe('rec.tool_decision');
    expect(attrs({ type: 'interruption' })['event.name']).toBe('rec.interruption');
    const miss = attrs({ type: 'miss', kind: 'edit' });
    expect([miss['event.name'], miss['rec.type'], miss['rec.kind']]).toEqual(['rec.miss', 'miss', 'edit']);
  });

  it('sends the verified flag as a boolean, and a command given as a string as it is', () => {
    expect(attrs({})['rec.agent_version_verified']).toBe(true);
    expect(attrs({ agent_version_verified: null })['rec.agent_version_verified']).toBeUndefined();
    expect(attrs({ tool_input: 'ls -la' }, true)['rec.tool_input']).toBe('ls -la');
  });

  it('leaves the command, the reason and partial output out unless asked, and keeps file paths', () => {
    const edit = { tool_name: 'Edit', tool_input: { file_path: '/work/src/a.ts', old_string: 'secret', new_string: 'x' }, partial_output: 'out' };
    const plain = attrs(edit);
    expect(plain['rec.file_paths']).toEqual(['/work/src/a.ts']);
    expect(JSON.stringify(plain)).not.toMatch(/secret|not now|"out"/);
    const full = attrs(edit, true);
    expect([full['rec.tool_input'], full['rec.reason'], full['rec.partial_output']]).toEqual([JSON.stringify(edit.tool_input), 'not now', 'out']);
    expect(attrs({}, true)['rec.tool_input']).toBe(JSON.stringify(BASE.tool_input));
  });

  it("finds the paths of Codex's patches and of other tools' inputs", () => {
    expect(filePaths({ changes: { '/w/a.ts': {}, '/w/b.ts': {} } })).toEqual(['/w/a.ts', '/w/b.ts']);
    expect(filePaths({ path: '/w/c', absolute_path: '/w/c' })).toEqual(['/w/c']);
    expect(filePaths('ls -la')).toEqual([]);
  });
});

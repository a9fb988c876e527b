import { describe, expect, it } from 'vitest';
import { CLAUDE_TOOLS } from '../../../src/agents/claude/tools.js';
import { CODEX_TOOLS } from '../../../src/agents/codex/tools.js';
import { GEMINI_TOOLS } from '../../../src/agents/gemini/tools.js';
import { parseApplyPatch, toAction, toRejectionKind } from '../../../src/readers/action.js';

describe('toAction', () => {
  it('Codex exec_command is the command; an apply_patch heredoc is the edit', () => {
    expect(toAction(CODEX_TOOLS, 'exec_command', { cmd: 'ls -la' })).toEqual({ type: 'command', command: 'ls -la' });
    const cmd = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: /w/patched.txt\n+line one\n+line two\n*** End Patch\nEOF";
    expect(toAction(CODEX_TOOLS, 'exec_command', { cmd })).toEqual({
      type: 'edit',
      edits: [{ path: '/w/patched.txt', operation: 'add', old_text: null, new_text: 'line one\nline two' }],
    });
  });

  it('Gemini and Claude shell and edit tools', () => {
    expect(toAction(GEMINI_TOOLS, 'run_shell_command', { command: 'touch x' })).toEqual({ type: 'command', command: 'touch x' });
    expect(toAction(GEMINI_TOOLS, 'replace', { file_path: 'a', old_string: 'o', new_string: 'n' })).toEqual({
      type: 'edit',
      edits: [{ path: 'a', operation: 'update', old_text: 'o', new_text: 'n' }],
    });
    expect(toAction(CLAUDE_TOOLS, 'Write', { file_path: 'b', content: 'c' })).toEqual({ type: 'edit', edits: [{ path: 'b', operation: 'write', old_text: null, new_text: 'c' }] });
    expect(toAction(CLAUDE_TOOLS, 'MultiEdit', { file_path: 'c', edits: [{ old_string: '1', new_string: '2' }] })).toEqual({
      type: 'edit',
      edits: [{ path: 'c', operation: 'update', old_text: '1', new_text: '2' }],
    });
    expect(toAction(CLAUDE_TOOLS, 'WebFetch', { url: 'x' })).toEqual({ type: 'other' });
  });

  it("rejection kinds by each agent's tools", () => {
    expect([
      toRejectionKind(CLAUDE_TOOLS, 'Bash'),
      toRejectionKind(CLAUDE_TOOLS, 'Edit'),
      toRejectionKind(CLAUDE_TOOLS, 'mcp__s__t'),
      toRejectionKind(GEMINI_TOOLS, 'web_fetch'),
      toRejectionKind(CLAUDE_TOOLS, 'Agent'),
      toRejectionKind(CODEX_TOOLS, 'apply_patch'),
      toRejectionKind(CODEX_TOOLS, 'Bash'), // another agent's tool is not Codex's
    ]).toEqual(['command', 'edit', 'mcp', 'network', null, 'edit', null]);
  });
});

describe('parseApplyPatch', () => {
  it('an update hunk gives the old text (removed + context) and the new text (added + context)', () => {
    const edits = parseApplyPatch('*** Begin Patch\n*** Update File: f.txt\n@@\n keep\n-old\n+new\n*** Delete File: g.txt\n*** End Patch');
    expect(edits).toEqual([
      { path: 'f.txt', operation: 'update', old_text: 'keep\nold', new_text: 'keep\nnew' },
      { path: 'g.txt', operation: 'delete', old_text: '', new_text: null },
    ]);
  });
});

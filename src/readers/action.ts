// The action behind a tool call, inlined the same way for every agent: the command, or the edit
// with its old and new text, so that no analysis has to search back for what was refused.
import type { EventKind } from '../core/events.js';
import type { Action } from './conversation.js';

const SHELL_TOOLS = new Set(['exec_command', 'shell', 'local_shell', 'container.exec', 'run_shell_command', 'Bash', 'BashOutput']);
const EDIT_TOOLS = new Set(['apply_patch', 'write_file', 'replace', 'edit', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit']);
const NETWORK_TOOLS = new Set(['web_fetch', 'WebFetch', 'web_search', 'WebSearch', 'google_web_search']);

function rec(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}
function s(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** The kind of a rejection of this tool, when the tool says it; null when it cannot be told. */
export function toRejectionKind(toolName: string | null): EventKind | null {
  if (toolName === null) return null;
  if (toolName.startsWith('mcp__')) return 'mcp';
  if (SHELL_TOOLS.has(toolName)) return 'command';
  if (EDIT_TOOLS.has(toolName)) return 'edit';
  if (NETWORK_TOOLS.has(toolName)) return 'network';
  return null;
}

/** Codex sends patches as `apply_patch <<'EOF' … EOF` through exec_command. */
const APPLY_PATCH_HEREDOC = /^\s*apply_patch\s+<<\s*'?(\w+)'?\s*\n([\s\S]*?)\n\1\s*$/;

export function toAction(toolName: string | null, input: unknown): Action | null {
  if (toolName === null) return null;
  const o = rec(input);
  switch (toolName) {
    case 'exec_command':
    case 'shell':
    case 'local_shell':
    case 'container.exec': {
      const raw = o ? (o['cmd'] ?? o['command']) : input;
      const cmd = Array.isArray(raw) ? raw.map(String).join(' ') : s(raw);
      if (cmd === null) return { type: 'other' };
      const patch = APPLY_PATCH_HEREDOC.exec(cmd);
      if (patch) return { type: 'edit', edits: parseApplyPatch(patch[2] ?? '') };
      return { type: 'command', command: cmd };
    }
    case 'apply_patch': {
      const text = s(input) ?? (o ? s(o['input']) ?? s(o['patch']) : null);
      return text === null ? { type: 'other' } : { type: 'edit', edits: parseApplyPatch(text) };
    }
    case 'run_shell_command':
    case 'Bash': {
      const cmd = o ? s(o['command']) : null;
      return cmd === null ? { type: 'other' } : { type: 'command', command: cmd };
    }
    case 'write_file':
    case 'Write': {
      const path = o ? s(o['file_path']) ?? s(o['path']) : null;
      if (path === null) return { type: 'other' };
      return { type: 'edit', edits: [{ path, operation: 'write', old_text: null, new_text: o ? s(o['content']) : null }] };
    }
    case 'replace':
    case 'edit':
    case 'Edit': {
      const path = o ? s(o['file_path']) ?? s(o['path']) : null;
      if (path === null || o === null) return { type: 'other' };
      return {
        type: 'edit',
        edits: [{ path, operation: 'update', old_text: s(o['old_string']), new_text: s(o['new_string']) }],
      };
    }
    case 'MultiEdit': {
      const path = o ? s(o['file_path']) : null;
      const edits = o && Array.isArray(o['edits']) ? o['edits'] : [];
      if (path === null) return { type: 'other' };
      return {
        type: 'edit',
        edits: edits.map((e) => {
          const r = rec(e);
          return { path, operation: 'update' as const, old_text: r ? s(r['old_string']) : null, new_text: r ? s(r['new_string']) : null };
        }),
      };
    }
    case 'NotebookEdit': {
      const path = o ? s(o['notebook_path']) : null;
      if (path === null || o === null) return { type: 'other' };
      return { type: 'edit', edits: [{ path, operation: 'update', old_text: null, new_text: s(o['new_source']) }] };
    }
    default:
      return { type: 'other' };
  }
}

type Edit = Extract<Action, { type: 'edit' }>['edits'][number];

/**
 * Parses the body of a Codex patch (`*** Begin Patch` … `*** End Patch`) into edits with the old
 * and new text of each file: removed lines (`-`) and context make the old text, added lines (`+`)
 * and context the new text.
 */
export function parseApplyPatch(body: string): Edit[] {
  const edits: Edit[] = [];
  let current: { path: string; operation: Edit['operation']; old: string[]; neu: string[] } | null = null;
  const flush = (): void => {
    if (!current) return;
    edits.push({
      path: current.path,
      operation: current.operation,
      old_text: current.operation === 'add' ? null : current.old.join('\n'),
      new_text: current.operation === 'delete' ? null : current.neu.join('\n'),
    });
    current = null;
  };
  for (const line of body.split('\n')) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      flush();
      const op = header[1] === 'Add' ? 'add' : header[1] === 'Delete' ? 'delete' : 'update';
      current = { path: header[2]!.trim(), operation: op, old: [], neu: [] };
      continue;
    }
    if (!current || line.startsWith('*** ') || line.startsWith('@@')) continue;
    if (line.startsWith('+')) current.neu.push(line.slice(1));
    else if (line.startsWith('-')) current.old.push(line.slice(1));
    else if (line.startsWith(' ')) {
      current.old.push(line.slice(1));
      current.neu.push(line.slice(1));
    }
  }
  flush();
  return edits;
}

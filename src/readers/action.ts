// The action behind a tool call, inlined the same way for every agent: the command, or the edit
// with its old and new text, so that no analysis has to search back for what was refused. Each
// agent module lists its tools (agents/<name>/tools.ts) with the builders below; this file names no
// agent's tool.
import type { EventKind } from '../core/events.js';
import type { Action } from './conversation.js';

export type Edit = Extract<Action, { type: 'edit' }>['edits'][number];

/** One tool of an agent: the kind of a rejection of it, and the action a call of it takes. */
export interface ToolSpec {
  readonly kind: EventKind | null;
  action(input: unknown): Action;
}

/** An agent's tools by name; `fallback` covers names no entry has (e.g. `mcp__server__tool`). */
export interface ToolTable {
  readonly tools: Readonly<Record<string, ToolSpec>>;
  fallback?(toolName: string): ToolSpec | undefined;
}

const OTHER: Action = { type: 'other' };

export function rec(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}
export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function spec(toolTable: ToolTable, toolName: string): ToolSpec | undefined {
  return Object.hasOwn(toolTable.tools, toolName) ? toolTable.tools[toolName] : toolTable.fallback?.(toolName);
}

/** The kind of a rejection of this tool, when the tool says it; null when it cannot be told. */
export function toRejectionKind(table: ToolTable, toolName: string | null): EventKind | null {
  return toolName === null ? null : (spec(table, toolName)?.kind ?? null);
}

export function toAction(table: ToolTable, toolName: string | null, input: unknown): Action | null {
  if (toolName === null) return null;
  return spec(table, toolName)?.action(input) ?? OTHER;
}

/** A tool of this kind whose calls are not normalised (`other`). */
export function otherTool(kind: EventKind | null): ToolSpec {
  return { kind, action: () => OTHER };
}

/**
 * A shell tool: the command under the first of `keys` that is set. `raw`: an input that is not an
 * object is the command itself; `argv`: an array command is joined with spaces.
 */
export function commandTool(keys: readonly string[], opts: { raw?: boolean; argv?: boolean; asEdit?: (command: string) => Edit[] | null } = {}): ToolSpec {
  return {
    kind: 'command',
    action(input) {
      const o = rec(input);
      let value: unknown = o ? undefined : opts.raw ? input : undefined;
      if (o) for (const k of keys) if (value == null) value = o[k];
      const cmd = opts.argv && Array.isArray(value) ? value.map(String).join(' ') : str(value);
      if (cmd === null) return OTHER;
      const edits = opts.asEdit?.(cmd);
      return edits ? { type: 'edit', edits } : { type: 'command', command: cmd };
    },
  };
}

/** Tools named `mcp__<server>__<tool>`: an MCP server's tool, of kind `mcp`. */
export function mcpTool(toolName: string): ToolSpec | undefined {
  return toolName.startsWith('mcp__') ? otherTool('mcp') : undefined;
}

/** A tool that writes a whole file: its path under one of `pathKeys`, its text under `contentKey`. */
export function writeTool(pathKeys: readonly string[], contentKey: string): ToolSpec {
  return {
    kind: 'edit',
    action(input) {
      const o = rec(input);
      const path = firstString(o, pathKeys);
      if (path === null) return OTHER;
      return { type: 'edit', edits: [{ path, operation: 'write', old_text: null, new_text: o ? str(o[contentKey]) : null }] };
    },
  };
}

/** A tool that replaces text in a file: path, old and new text under the keys given. */
export function replaceTool(pathKeys: readonly string[], oldKey: string | null, newKey: string): ToolSpec {
  return {
    kind: 'edit',
    action(input) {
      const o = rec(input);
      const path = firstString(o, pathKeys);
      if (path === null || o === null) return OTHER;
      return { type: 'edit', edits: [{ path, operation: 'update', old_text: oldKey === null ? null : str(o[oldKey]), new_text: str(o[newKey]) }] };
    },
  };
}

/** A tool that makes several replacements in one file (`edits[]` of old and new text). */
export function multiReplaceTool(pathKey: string, editsKey: string, oldKey: string, newKey: string): ToolSpec {
  return {
    kind: 'edit',
    action(input) {
      const o = rec(input);
      const path = o ? str(o[pathKey]) : null;
      const edits = o && Array.isArray(o[editsKey]) ? (o[editsKey] as unknown[]) : [];
      if (path === null) return OTHER;
      return {
        type: 'edit',
        edits: edits.map((e) => {
          const r = rec(e);
          return { path, operation: 'update' as const, old_text: r ? str(r[oldKey]) : null, new_text: r ? str(r[newKey]) : null };
        }),
      };
    },
  };
}

/** A tool whose input is a patch (`*** Begin Patch` …): the raw input, or the text under one of `keys`. */
export function patchTool(keys: readonly string[]): ToolSpec {
  return {
    kind: 'edit',
    action(input) {
      const text = str(input) ?? firstString(rec(input), keys);
      return text === null ? OTHER : { type: 'edit', edits: parseApplyPatch(text) };
    },
  };
}

function firstString(o: Record<string, unknown> | null, keys: readonly string[]): string | null {
  if (o === null) return null;
  for (const k of keys) {
    const v = str(o[k]);
    if (v !== null) return v;
  }
  return null;
}

/**
 * Parses the body of a patch (`*** Begin Patch` … `*** End Patch`) into edits with the old and new
 * text of each file: removed lines (`-`) and context make the old text, added lines (`+`) and
 * context the new text.
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

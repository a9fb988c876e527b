// What a call did, in the terms rules are written in: the pieces of a command, the edited paths
// relative to the project, the fetched host, or the MCP server and tool. One call may give several
// subjects (a compound command gives one per piece; an edit one per file).
import { isAbsolute, relative, sep } from 'node:path';
import type { DecidedCall } from '../merge/sessionDecisions.js';
import { splitCommand } from './shellWords.js';

export type Subject =
  | { kind: 'command'; text: string; words: readonly string[]; plain: boolean; compound: boolean }
  | { kind: 'edit'; path: string; inProject: boolean }
  | { kind: 'fetch'; host: string }
  | { kind: 'mcp'; server: string; tool: string };

/** `mcp__server__tool`, the name Claude (and Codex) give an MCP server's tool. */
export function mcpName(tool: string): { server: string; tool: string } | null {
  const m = /^mcp__(.+?)__(.+)$/.exec(tool);
  return m ? { server: m[1]!, tool: m[2]! } : null;
}

function hostOf(url: string): string | null {
  try {
    const h = new URL(url).hostname;
    return h === '' ? null : h.toLowerCase();
  } catch {
    return null;
  }
}

/** The path as the project sees it: relative to `cwd` when under it, else absolute. */
function projectPath(path: string, cwd: string | null): { path: string; inProject: boolean } {
  if (!isAbsolute(path)) return { path: path.replace(/^\.\//, ''), inProject: !path.startsWith('..') };
  if (cwd === null) return { path, inProject: false };
  const rel = relative(cwd, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return { path, inProject: false };
  return { path: rel.split(sep).join('/'), inProject: true };
}

export function subjectsOf(c: DecidedCall, cwd: string | null): Subject[] {
  if (c.command !== null) {
    const split = splitCommand(c.command);
    return split.segments.map((s) => ({ kind: 'command', text: s.text, words: s.words, plain: s.plain, compound: split.compound }));
  }
  if (c.paths.length > 0) return c.paths.map((p) => ({ kind: 'edit', ...projectPath(p, cwd) }));
  const mcp = mcpName(c.tool);
  if (mcp !== null) return [{ kind: 'mcp', ...mcp }];
  if (c.url !== null && /fetch/i.test(c.tool)) {
    const host = hostOf(c.url);
    return host === null ? [] : [{ kind: 'fetch', host }];
  }
  return [];
}

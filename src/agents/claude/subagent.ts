// Claude Code writes a subagent's transcript as <session>/subagents/agent-<id>.jsonl, with the
// parent's Agent call id in agent-<id>.meta.json beside it (docs/claude.md).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isObject } from '../../readers/nativeSession.js';

/** The subagent a transcript belongs to, or null for a main session's transcript. */
export function subagentOf(file: string): { agent_id: string | null; parent_call_id: string | null } | null {
  const p = file.replace(/\\/g, '/');
  if (!p.includes('/subagents/')) return null;
  const m = /^agent-(.+)\.jsonl$/.exec(basename(p));
  const agentId = m?.[1] ?? null;
  let parent: string | null = null;
  if (agentId !== null) {
    try {
      const meta: unknown = JSON.parse(readFileSync(join(dirname(file), `agent-${agentId}.meta.json`), 'utf8'));
      if (isObject(meta) && typeof meta['toolUseId'] === 'string') parent = meta['toolUseId'];
    } catch {
      // No or unreadable meta file (yet: Claude may write it after the transcript's first line):
      // the parent call stays unknown, which the output says (null).
    }
  }
  return { agent_id: agentId, parent_call_id: parent };
}

/** The subagent transcripts of a session so far (`<dir>/<session>/subagents/agent-*.jsonl`), sorted. */
export function subagentTranscripts(sessionFile: string): string[] {
  const dir = join(dirname(sessionFile), basename(sessionFile, '.jsonl'), 'subagents');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    // No subagent ran yet: Claude creates the folder with the first one.
    return [];
  }
  return names.filter((n) => /^agent-.+\.jsonl$/.test(n)).sort().map((n) => join(dir, n));
}

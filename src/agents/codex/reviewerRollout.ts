// The auto-review's reviewer writes its own rollout beside the session's (docs/codex-auto-review.md
// §4b): one turn per review, the planned action (a command, no call id) in the user message and the
// verdict as strict JSON in the assistant's last message. It is the one record of a reviewer's
// approval, which the session's rollout shows as a call that needed none; the live recorder follows
// it as a companion file and ties each verdict to the call that runs the same command.
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { callCommand } from './callMatcher.js';
import { readFirstLine } from './sessionCandidates.js';
import { isSubagentThread, SessionMeta } from './sessionRecords.js';
import type { CodexStrings } from './strings/index.js';

/** The thread_source of the reviewer's rollout. */
const REVIEWER_THREAD = 'guardian_review';
/** The content item that precedes the planned action's JSON in a review request. */
const PLANNED_ACTION = 'Planned action JSON:';
const SESSION_ID_IN_NAME = /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/;

const Verdict = z.looseObject({ outcome: z.enum(['allow', 'deny']), rationale: z.string().optional() });

export interface ReviewVerdict {
  /** The command the reviewer judged, as Codex shows it (the script of a `bash -lc`). */
  readonly command: string;
  readonly outcome: 'allow' | 'deny';
  readonly rationale?: string;
}

/**
 * The reviewer rollouts of the session whose rollout is `sessionFile`, in the same day folder,
 * written to since `since` (ms). Each file's first line is read once: `seen` keeps the answer.
 */
export function reviewerRollouts(sessionFile: string, since: number, seen: Map<string, boolean>): string[] {
  const sessionId = SESSION_ID_IN_NAME.exec(basename(sessionFile))?.[1];
  if (sessionId === undefined) return [];
  const dir = dirname(sessionFile);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    // The folder went away: no reviewer writes there.
    return [];
  }
  const found: string[] = [];
  for (const name of names) {
    const file = join(dir, name);
    if (file === sessionFile || !name.startsWith('rollout-') || !name.endsWith('.jsonl')) continue;
    let ours = seen.get(file);
    if (ours === undefined) {
      if (!writtenSince(file, since)) continue;
      const first = readFirstLine(file);
      if (first === undefined) continue; // still being written: looked at again next time
      ours = isReviewerOf(first, sessionId);
      seen.set(file, ours);
    }
    if (ours) found.push(file);
  }
  return found;
}

function writtenSince(file: string, since: number): boolean {
  try {
    return statSync(file).mtimeMs >= since;
  } catch {
    // Deleted since it was listed.
    return false;
  }
}

function isReviewerOf(firstLine: string, sessionId: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(firstLine);
  } catch {
    return false; // not a rollout's session_meta: not the reviewer's
  }
  const meta = SessionMeta.safeParse(json);
  if (!meta.success || !isSubagentThread(meta.data.payload)) return false;
  const p = meta.data.payload;
  return p.thread_source === REVIEWER_THREAD && p.parent_thread_id === sessionId;
}

const Line = z.looseObject({
  type: z.string(),
  payload: z.looseObject({
    type: z.string().optional(),
    role: z.string().optional(),
    content: z.array(z.looseObject({ text: z.string().optional() })).optional(),
    last_agent_message: z.string().nullable().optional(),
  }),
});

/** Reads one reviewer rollout line by line: each finished review gives its verdict. */
export class ReviewerRolloutReader {
  private _planned: string | undefined;

  constructor(private readonly _strings: () => CodexStrings) {}

  /** The verdict a line completes (the review turn's end), else undefined. */
  line(text: string): ReviewVerdict | undefined {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return undefined; // a torn line carries nothing
    }
    const r = Line.safeParse(json);
    if (!r.success) return undefined;
    const p = r.data.payload;
    if (r.data.type === 'response_item' && p.type === 'message' && p.role === 'user' && p.content) {
      const planned = plannedCommand(p.content.map((c) => c.text ?? ''), this._strings());
      if (planned !== undefined) this._planned = planned;
      return undefined;
    }
    if (r.data.type !== 'event_msg') return undefined;
    if (p.type === 'turn_aborted') this._planned = undefined;
    if (p.type !== 'task_complete' && p.type !== 'turn_complete') return undefined;
    const command = this._planned;
    this._planned = undefined;
    const verdict = parseVerdict(p.last_agent_message ?? '');
    if (command === undefined || verdict === undefined) return undefined;
    return { command, outcome: verdict.outcome, ...(verdict.rationale !== undefined ? { rationale: verdict.rationale } : {}) };
  }
}

function plannedCommand(items: readonly string[], strings: CodexStrings): string | undefined {
  const at = items.findIndex((t) => t.trim() === PLANNED_ACTION);
  if (at < 0 || at + 1 >= items.length) return undefined;
  let action: unknown;
  try {
    action = JSON.parse(items[at + 1]!);
  } catch {
    return undefined; // not the JSON Codex writes: no command to tie a verdict to
  }
  return callCommand({ callId: '', toolName: 'exec_command', toolInput: action, order: 0 }, strings);
}

/** The verdict as Codex reads it: strict JSON, or the first `{` to the last `}` of a prose answer. */
function parseVerdict(text: string): z.infer<typeof Verdict> | undefined {
  const from = text.indexOf('{');
  const to = text.lastIndexOf('}');
  if (from < 0 || to < from) return undefined;
  try {
    const v = Verdict.safeParse(JSON.parse(text.slice(from, to + 1)));
    return v.success ? v.data : undefined;
  } catch {
    return undefined; // not JSON: Codex counts it a failed review, which the session's rollout says
  }
}

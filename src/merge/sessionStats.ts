// What one merged session contributes to `rec stats`: small enough to send from a worker for each
// of thousands of sessions, complete enough to aggregate every figure without the session.
import type { Action, MergedSession } from './mergedSession.js';

export interface SessionStats {
  agent: string;
  session_id: string | null;
  file: string | null;
  /** Tool calls the session proposed, per tool. */
  calls_by_tool: Record<string, number>;
  rejections: Array<{ tool: string; kind: string; trigger: string; decided_by: string; command: string | null; ran: string; call_id: string | null; skipped: number }>;
  interruptions: Array<{ tool: string; kind: string; trigger: string }>;
  skipped: number;
  approvals: number;
  unknown: number;
  diagnostics: number;
  /** Decisions the agent's file shows that rec missed while it recorded (`miss` diagnostics). */
  misses: number;
}

/** Placeholder shown for a field no source could tell. */
export const NONE = '(unknown)';

/** The refused thing as one line: the command, or the edited files. */
export function actionSummary(action: Action | null): string | null {
  if (action === null) return null;
  if (action.type === 'command') return action.command.replace(/\s+/g, ' ').trim();
  if (action.type === 'edit') return `edit ${action.edits.map((e) => e.path).join(', ')}`;
  return null;
}

export function toSessionStats(s: MergedSession): SessionStats {
  const callsByTool: Record<string, number> = {};
  for (const c of s.calls) callsByTool[c.tool_name] = (callsByTool[c.tool_name] ?? 0) + 1;
  const skippedBy = new Map<string, number>();
  for (const k of s.skipped) if (k.related_call_id) skippedBy.set(k.related_call_id, (skippedBy.get(k.related_call_id) ?? 0) + 1);
  // Pushed into literals rather than mapped, for one hidden class whether empty or not (see assemble).
  const rejections: SessionStats['rejections'] = [];
  for (const r of s.rejections) {
    rejections.push({
      tool: r.tool_name ?? NONE,
      kind: r.rejection_type ?? NONE,
      trigger: r.trigger ?? NONE,
      decided_by: r.decided_by ?? NONE,
      command: actionSummary(r.action),
      ran: r.ran ?? 'unknown',
      call_id: r.call_id,
      skipped: r.call_id ? (skippedBy.get(r.call_id) ?? 0) : 0,
    });
  }
  const interruptions: SessionStats['interruptions'] = [];
  for (const i of s.interruptions) interruptions.push({ tool: i.tool_name ?? '(turn)', kind: i.kind ?? NONE, trigger: i.trigger ?? NONE });
  return {
    agent: s.session.agent,
    session_id: s.session.agent_session_id,
    file: s.session.files[0] ?? null,
    calls_by_tool: callsByTool,
    rejections,
    interruptions,
    skipped: s.skipped.length,
    approvals: s.approvals.length,
    unknown: s.unknown.length,
    diagnostics: s.diagnostics.length,
    misses: s.diagnostics.filter((d) => d.code === 'miss').length,
  };
}

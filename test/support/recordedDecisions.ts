// Decisions from the merged sessions of the recorded fixtures (test/fixtures/logs/golden), and
// sessions made from them: the same agent, tool, folder and decision fields, with other commands or
// paths, so that thresholds and groups can be pinned on the real shapes.
import { readFileSync } from 'node:fs';
import { MergedSession } from '../../src/merge/mergedSession.js';
import { loadReaders } from '../../src/merge/readSession.js';
import { toSessionDecisions, type DecidedCall, type SessionDecisions } from '../../src/merge/sessionDecisions.js';
import { LOGS } from './fixturePaths.js';

export const GOLDEN = {
  codex: 'codex-parallel-approve-deny.rollout-sidecar.json',
  claude: 'claude-05-bash-reject-with-reason.json',
  claudeEdit: 'claude-13-parallel-reject-first-No.json',
  gemini: 'gemini-shell-esc-then-feedback.session.json',
  geminiEdit: 'gemini-parallel-esc-first.session.json',
} as const;

export async function recordedDecisions(name: string): Promise<SessionDecisions> {
  await loadReaders();
  return toSessionDecisions(MergedSession.parse(JSON.parse(readFileSync(`${LOGS}golden/${name}`, 'utf8'))));
}

/** A decision to put in a made session: a command, or `{ path }` for an edit; with a reason for a refusal. */
export type Made = string | { path: string } | { command: string; reason: string };

/**
 * A session like `base` (its agent, folder, tool and decision fields) whose calls are `approved`
 * and `refused` instead. It counts as recorded by rec, as `base` does when a run saw it.
 */
export function madeSession(base: SessionDecisions, id: string, approved: readonly Made[], refused: readonly Made[] = []): SessionDecisions {
  const template = base.calls.find((c) => c.outcome === 'refused') ?? base.calls[0]!;
  const call = (m: Made, outcome: DecidedCall['outcome'], i: number): DecidedCall => ({
    ...template,
    outcome,
    call_id: `${id}-${outcome}-${i}`,
    command: typeof m === 'string' ? m : 'command' in m ? m.command : null,
    paths: typeof m === 'object' && 'path' in m ? [m.path] : [],
    decided_by: 'user',
    reason: typeof m === 'object' && 'reason' in m ? m.reason : null,
    timestamp: `2026-11-2${i % 10}T10:00:00.000Z`,
  });
  return {
    ...base,
    session_id: id,
    recorded: true,
    calls: [...approved.map((m, i) => call(m, 'approved', i)), ...refused.map((m, i) => call(m, 'refused', i))],
  };
}

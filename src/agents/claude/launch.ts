// How `rec claude` starts Claude Code: the user's arguments untouched, plus a known session id
// (--session-id, so the transcript's name is known before Claude writes it) and rec's hooks for this
// run (--settings, merged into the user's own --settings if they passed one). Nothing is written to
// ~/.claude or to the project. When rec cannot add its hooks without changing what the user asked
// for (an unreadable --settings value of theirs), it adds none and records from screen and transcript.
import { randomUUID } from 'node:crypto';
import type { LaunchContext, LaunchPlan } from '../agentAdapter.js';
import { mergeHooks, readUserSettings, recHooks } from './hookSettings.js';
import { readClaudeArgs } from './launchArgs.js';

/**
 * The session id rec gave Claude (or the one the user chose), for the recorder to find the
 * transcript; absent when Claude picks it (--resume, --continue): the hooks then name it.
 */
export const CLAUDE_SESSION_ENV = 'REC_CLAUDE_SESSION_ID';

export interface ClaudeLaunchOptions {
  /** For tests: the id a new session gets. */
  readonly newSessionId?: () => string;
}

export function prepareClaudeLaunch(ctx: LaunchContext, options: ClaudeLaunchOptions = {}): LaunchPlan & { readonly notes: readonly string[] } {
  const reading = readClaudeArgs(ctx.args);
  if (reading.noSession) return { args: ctx.args, env: ctx.env, notes: [] };
  const notes: string[] = [];
  const args = [...ctx.args];
  const added: string[] = [];
  let sessionId = reading.sessionId;
  if (sessionId === undefined && !reading.resumes) {
    sessionId = (options.newSessionId ?? randomUUID)();
    added.push('--session-id', sessionId);
  }
  const ours = recHooks(ctx.hookCommand);
  if (reading.settings) {
    const user = readUserSettings(reading.settings.value, ctx.cwd);
    if (user.ok) {
      const merged = JSON.stringify(mergeHooks(user.settings, ours));
      args[reading.settings.index] = reading.settings.inline ? `--settings=${merged}` : merged;
    } else {
      notes.push(`${user.error}; passed to Claude as it is, with none of rec's hooks (recorded from the screen and the transcript only)`);
    }
  } else {
    added.push('--settings', JSON.stringify({ hooks: ours }));
  }
  const env = sessionId !== undefined ? { ...ctx.env, [CLAUDE_SESSION_ENV]: sessionId } : ctx.env;
  return { args: [...added, ...args], env, notes };
}

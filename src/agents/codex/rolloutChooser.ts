// Which of the candidate rollouts (same folder, started after this run) is this run's, without
// hooks: the one whose content the screen shows. Two witnesses, either is enough:
//   - a pending function_call of the rollout is the call the approval prompt on screen is about
//     (command and Reason, callMatcher.ts);
//   - a user message of the rollout is a message the screen shows in its history (`› …` rows).
// Both are compared in memory with what is on screen right now; no text is stored. Until one
// candidate is confirmed, none is followed: a rollout of another Codex session in the same folder
// is never mistaken for ours.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { KnownCall } from '../common/callLedger.js';
import { promptShowsCall } from './callMatcher.js';
import type { CodexPrompt } from './promptParser.js';
import { findRolloutCandidates } from './rolloutLocator.js';
import { isHarnessMessage, messageText, parseRolloutLine, toolInputOf } from './rolloutRecords.js';
import type { CodexStrings } from './strings/index.js';

/** How much of a candidate is read to confirm it; the first turn of a session is far smaller. */
const PEEK_MAX_BYTES = 8 * 1024 * 1024;
/** A user message shown on screen only in part (scrolled, clipped) still counts from this length on. */
const MIN_PARTIAL_MESSAGE_CHARS = 24;

export interface ScreenWitness {
  /** The user's messages as the screen shows them in its history, wrapped rows re-joined. */
  readonly userMessages: readonly string[];
  readonly prompt?: CodexPrompt;
}

interface Peeked {
  readonly userMessages: string[];
  readonly pendingCalls: KnownCall[];
}

const squash = (s: string) => s.replace(/\s+/g, '');

export class RolloutChooser {
  constructor(
    private readonly _env: NodeJS.ProcessEnv,
    private readonly _cwd: string,
    private readonly _startedAt: Date,
  ) {}

  /** The candidate the screen confirms, or undefined (none yet, or none confirmed). */
  choose(witness: ScreenWitness, strings: CodexStrings): string | undefined {
    const candidates = findRolloutCandidates(this._env, this._cwd, this._startedAt);
    const shown = witness.userMessages.map(squash).filter((m) => m !== '');
    for (const file of candidates) {
      const peeked = peekRollout(file, strings);
      if (!peeked) continue;
      const prompt = witness.prompt;
      if (prompt && peeked.pendingCalls.some((c) => promptShowsCall(prompt, c, strings))) return file;
      const messages = peeked.userMessages.map(squash);
      const seen = shown.some((s) =>
        messages.some((m) => m === s || (s.length >= MIN_PARTIAL_MESSAGE_CHARS && m.startsWith(s))),
      );
      if (seen) return file;
    }
    return undefined;
  }
}

function peekRollout(file: string, strings: CodexStrings): Peeked | undefined {
  let text: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const size = Math.min(fstatSync(fd).size, PEEK_MAX_BYTES);
      const buf = Buffer.alloc(size);
      const n = readSync(fd, buf, 0, size, 0);
      text = buf.subarray(0, n).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    // Removed or unreadable since it was listed: not a candidate any more.
    return undefined;
  }
  const userMessages: string[] = [];
  const calls = new Map<string, KnownCall>();
  const answered = new Set<string>();
  let order = 0;
  for (const line of text.split('\n')) {
    const record = line.trim() === '' ? undefined : parseRolloutLine(line);
    if (!record || record.type !== 'response_item') continue;
    const item = record.payload;
    if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      const toolInput = toolInputOf(item);
      calls.set(item.call_id, { callId: item.call_id, toolName: item.name, toolInput, order: ++order });
    } else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      answered.add(item.call_id);
    } else if (item.type === 'message' && item.role === 'user') {
      const message = messageText(item);
      if (!isHarnessMessage(item, message, strings)) userMessages.push(message);
    }
  }
  return { userMessages, pendingCalls: [...calls.values()].filter((c) => !answered.has(c.callId)) };
}

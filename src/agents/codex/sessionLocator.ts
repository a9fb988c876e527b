// Which rollout is this run's. What it guarantees:
//   - `named`: Codex showed the session id itself (`codex resume <id>`, printed as it exits; nothing
//     before the exit shows it, measured on 0.169.0: not the screen, not the titles or OSCs), so the
//     file named after that id is this run's, a resumed one included. No other session can show it.
//   - `named_gone`: Codex named a session whose rollout does not exist: no other file is ours.
//   - `fits`: of the candidates (rollouts of this cwd written to since the run started), those that
//     show the most of what the screen shows: a call of this run's the approval prompt on screen is
//     about (command and Reason, callMatcher.ts), and the user messages the screen shows in its
//     history (`› …` rows). Two sessions given the same words and the same command fit equally; the
//     recorder then binds neither. It binds a lone fit, and it hands in as witnesses only what the
//     screen showed long enough ago that our own file holds it too (sessionBinding.ts
//     WITNESS_SETTLE_MS), so a twin written before ours is not the lone fit by being first. A
//     candidate that ran a call this run refused is a twin's that approved it, and is left out.
//     The settle time is no proof on a loaded machine (our rollout may trail by more, and Codex
//     creates it only with the first turn, so nothing of ours shows to tie with): while another
//     Codex works in this folder (agentsBeside.ts), a lone fit is not handed in at all, and the id
//     Codex prints at exit names the rollout.
// Witnesses measured and rejected (Codex 0.169.0, docs/codex.md): the open files under /proc. The
// rollouts are written by the app-server daemon that every TUI of that CODEX_HOME shares (and that
// was forked under whichever pane started first, so it is even a descendant of one pane only); the
// TUI holds no rollout open. Creation order: two panes started together create their rollouts in
// the same second. Both are said here so that no one adds them back as "either is enough".
// Everything is compared in memory with what is on screen right now; no text is stored.
import type { SessionChoice, SessionFileRef } from '../common/agentProfile.js';
import type { KnownCall } from '../common/callLedger.js';
import { besideProbe } from '../common/agentsBeside.js';
import { readHead } from '../common/fileHead.js';
import { isoTimestampOf, runStartIn, runStartOffset } from '../common/runPart.js';
import { promptShowsCall } from './callMatcher.js';
import type { CodexPrompt } from './screenParser.js';
import { findRolloutById, findRolloutCandidates } from './sessionCandidates.js';
import { isHarnessMessage, messageText, parseRolloutLine, ranCallOf, toolInputOf } from './sessionRecords.js';
import type { CodexStrings } from './strings/index.js';
import type { RunStart } from '../common/runPart.js';

/** How much of a candidate is read to confirm it; a session's turns are far smaller. */
const PEEK_MAX_BYTES = 8 * 1024 * 1024;
/** A user message shown on screen only in part (scrolled, clipped) still counts from this length on. */
const MIN_PARTIAL_MESSAGE_CHARS = 24;

export interface ScreenWitness {
  /** The user's messages as the screen shows them in its history, wrapped rows re-joined. */
  readonly userMessages: readonly string[];
  readonly prompt?: CodexPrompt;
  /** The session id Codex printed (`codex resume <id>`). */
  readonly sessionId?: string;
  /** The prompts this run refused (a candidate that ran one of their calls is a twin's). */
  readonly refused?: readonly CodexPrompt[];
}

interface Peeked {
  readonly userMessages: string[];
  /**
   * Calls of this run's part of the file, answered or not: once our prompt is decided our call has
   * its output, while a twin's may still wait, so "still pending" would favour the twin.
   */
  readonly calls: Array<KnownCall & { ran?: boolean }>;
  /** Byte offset of this run's part (0 unless the file holds a resumed session's earlier turns). */
  readonly from: number;
  /** Bytes read: a `from` this far found no record of this run in them (a longer file). */
  readonly size: number;
}

const squash = (s: string) => s.replace(/\s+/g, '');

/**
 * A Codex TUI process, by its argv: the npm launcher (`codex`, `codex.js`) or the native binary it
 * starts, and not the app-server daemon every TUI of a CODEX_HOME shares (`codex app-server …`),
 * which outlives them.
 */
export function isCodexProcess(argv: readonly string[]): boolean {
  if (argv.includes('app-server')) return false;
  // The program itself, or a script path an interpreter runs (an argument that merely says "codex" is not one).
  return /(^|\/)codex$/.test(argv[0] ?? '') || argv.slice(1).some((a) => /\/codex(\.js)?$/.test(a) || a.includes('/@openai/codex/'));
}

/** Whether another Codex works in this folder beside the run's own (undefined: cannot tell). */
export type CodexBeside = () => boolean | undefined;

/** The probe of a live run: Codex TUIs in `cwd` outside the tree of `agentPid`. */
export function codexBeside(agentPid: number, cwd: string): CodexBeside {
  return besideProbe({ ownPid: agentPid, cwd, isAgent: isCodexProcess });
}

export class RolloutChooser {
  constructor(
    private readonly _env: NodeJS.ProcessEnv,
    private readonly _cwd: string,
    private readonly _startedAt: Date,
    private readonly _beside: CodexBeside,
    /** Other days' rollouts written to since the start (a resumed session's), found in the background. */
    private readonly _earlier: () => readonly string[] = () => [],
  ) {}

  choose(witness: ScreenWitness, strings: CodexStrings): SessionChoice {
    if (witness.sessionId !== undefined) {
      const file = findRolloutById(this._env, witness.sessionId);
      return file !== undefined ? { type: 'named', file: { file, from: this.runStartsAt(file) } } : { type: 'named_gone', sessionId: witness.sessionId };
    }
    const shown = witness.userMessages.map(squash).filter((m) => m !== '');
    const scored: Array<{ ref: SessionFileRef; score: number }> = [];
    for (const file of findRolloutCandidates(this._env, this._cwd, this._startedAt, this._earlier())) {
      const peeked = peekRollout(file, strings, this._startedAt);
      if (!peeked) continue;
      // It ran a call this run refused: a twin that approved it.
      if ((witness.refused ?? []).some((p) => peeked.calls.some((c) => c.ran && promptShowsCall(p, c, strings)))) continue;
      const prompt = witness.prompt;
      const messages = peeked.userMessages.map(squash);
      const callShown = prompt !== undefined && peeked.calls.some((c) => promptShowsCall(prompt, c, strings));
      const messagesShown = shown.filter((s) => messages.some((m) => m === s || (s.length >= MIN_PARTIAL_MESSAGE_CHARS && m.startsWith(s)))).length;
      scored.push({ ref: { file, from: peeked.from < peeked.size ? peeked.from : this.runStartsAt(file) }, score: messagesShown + (callShown ? 1 : 0) });
    }
    const fits = bestFits(scored);
    // Our own rollout may not be written yet: a twin's may be the only one holding the same words.
    if (fits.length === 1 && this._beside() !== false) return { type: 'fits', files: [], heldBack: 'another Codex works in this folder' };
    return { type: 'fits', files: fits };
  }

  /** Where this run's part of a rollout begins (a resumed session's file holds earlier turns). */
  runStartsAt(file: string): RunStart {
    return runStartOffset(file, this._startedAt, isoTimestampOf);
  }
}

/**
 * The candidates that show the most of what the screen shows (each shown message, and the prompt's
 * call): one lacking something another has is not ours, unless ours trails the screen, which the
 * recorder's settle time allows for. Any parse slip of the screen costs every candidate alike.
 */
function bestFits(scored: ReadonlyArray<{ ref: SessionFileRef; score: number }>): SessionFileRef[] {
  const best = Math.max(0, ...scored.map((c) => c.score));
  return best === 0 ? [] : scored.filter((c) => c.score === best).map((c) => c.ref);
}

function peekRollout(file: string, strings: CodexStrings, startedAt: Date): Peeked | undefined {
  const data = readHead(file, PEEK_MAX_BYTES);
  if (data === undefined) return undefined;
  const from = runStartIn(data, startedAt.getTime(), isoTimestampOf);
  const userMessages: string[] = [];
  const calls = new Map<string, KnownCall & { ran?: boolean }>();
  const ranIds = new Set<string>();
  let order = 0;
  let offset = 0;
  for (const line of data.toString('utf8').split('\n')) {
    const ours = offset >= from;
    offset += Buffer.byteLength(line) + 1;
    const record = line.trim() === '' ? undefined : parseRolloutLine(line);
    if (record?.type === 'event_msg' && record.payload.type === 'item_completed') {
      // Codex writes a CommandExecution item only for a command that was run (never for one refused).
      const ran = ranCallOf(record.payload.item);
      if (ran !== undefined) ranIds.add(ran);
    }
    if (!record || record.type !== 'response_item') continue;
    const item = record.payload;
    if ((item.type === 'function_call' || item.type === 'custom_tool_call') && ours) {
      const toolInput = toolInputOf(item);
      calls.set(item.call_id, { callId: item.call_id, toolName: item.name, toolInput, order: ++order });
    } else if (item.type === 'message' && item.role === 'user') {
      // A resumed session's earlier messages count too: Codex shows them again on screen.
      const message = messageText(item);
      if (!isHarnessMessage(item, message, strings)) userMessages.push(message);
    }
  }
  return { userMessages, calls: [...calls.values()].map((c) => (ranIds.has(c.callId) ? { ...c, ran: true } : c)), from, size: data.length };
}

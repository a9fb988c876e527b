// Which chat file is this run's when no hook named it (every user but root: launch.ts). The
// candidates are <gemini home>/tmp/<slug>/chats/session-*.jsonl written since the run started
// (<slug> is this cwd's entry in <gemini home>/projects.json); a resumed session's file is one of
// them as soon as Gemini appends to it. What it guarantees:
//   - `named`: Gemini showed the session id itself (the "Session ID:" row of the summary it prints
//     as it quits), so the file whose metadata line carries that id is this run's. No other session
//     can show it.
//   - `named_gone`: it named a session whose file is gone (Gemini deletes a session with nothing
//     worth resuming as it quits) and was never seen here: no other file is ours. Every candidate is
//     kept open from the first scan that sees it (heldFiles.ts), so a deny-only session that Gemini
//     deletes as it quits, however soon after the user's message, is still `named` and read whole.
//   - `fits`: the candidates that hold the most of the user messages the screen showed (long
//     enough ago that our own file holds them too, sessionBinding.ts WITNESS_SETTLE_MS), leaving out
//     any that ran a call this run refused (a twin that approved it). Two sessions given the same
//     words fit equally; the recorder then binds neither. A lone fit is handed in alone only when
//     no other candidate may still be ours, or no other Gemini works in this folder
//     (agentsBeside.ts): our own file may trail the screen by more than any wait (a loaded machine),
//     and then a twin's, given the same words, is the only one holding them. A candidate is
//     another session's once it holds a user message this run's screen never showed.
// The session id is on screen only at the quit summary (Gemini 0.61.0), so two such sessions are
// told apart at exit, or not at all (a run killed before its summary keeps no call ids).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { SessionChoice, SessionFileRef, SessionWitness } from '../common/agentProfile.js';
import type { KnownCall } from '../common/callLedger.js';
import { readHead, readHeadOf } from '../common/fileHead.js';
import { HeldFiles } from '../common/heldFiles.js';
import { besideProbe } from '../common/agentsBeside.js';
import { isoTimestampOf, runStartOffset, sizesUntouchedSince } from '../common/runPart.js';
import { promptShowsCall } from './callMatcher.js';
import { geminiHome } from './home.js';
import { parseGeminiLine, userWords } from './sessionRecords.js';
import type { GeminiPrompt } from './screenParser.js';
import type { GeminiStrings } from './strings/index.js';
import type { RunStart } from '../common/runPart.js';

/** How much of a candidate is read to confirm it; its first turns are far smaller. */
const PEEK_MAX_BYTES = 4 * 1024 * 1024;
/** A file whose mtime is this much older than the run's start may still be ours (coarse clocks). */
const START_SLACK_MS = 2_000;
/** A message the screen shows only in part (clipped) still counts from this length on. */
const MIN_PARTIAL_MESSAGE_CHARS = 24;

const ProjectsFile = z.object({ projects: z.record(z.string(), z.string()) });

const squash = (s: string) => s.replace(/\s+/g, '');

/** A message a file holds, as the screen showed it: whole, or clipped from a long enough start. */
const shownAs = (fileMessage: string, shown: string) => fileMessage === shown || (shown.length >= MIN_PARTIAL_MESSAGE_CHARS && fileMessage.startsWith(shown));

/**
 * A Gemini CLI process, by its argv: the `gemini` binary or the bundle's `gemini.js` (the process
 * it relaunches itself as), or anything run from the `@google/gemini-cli` package.
 */
export function isGeminiProcess(argv: readonly string[]): boolean {
  // The program itself, or a script path an interpreter runs (an argument that merely says "gemini" is not one).
  return /(^|\/)gemini$/.test(argv[0] ?? '') || argv.slice(1).some((a) => /\/gemini(\.js)?$/.test(a) || a.includes('/@google/gemini-cli/'));
}

/** Whether another Gemini works in this folder beside the run's own (undefined: cannot tell). */
export type GeminiBeside = () => boolean | undefined;

/** The probe of a live run: Gemini processes in `cwd` outside the tree of `agentPid`. */
export function geminiBeside(agentPid: number, cwd: string): GeminiBeside {
  return besideProbe({ ownPid: agentPid, cwd, isAgent: isGeminiProcess });
}

export class SessionChooser {
  /** The chat files' sizes as the run started: what a resumed one held then is earlier (runPart.ts). */
  private readonly _sizesAtStart: ReadonlyMap<string, number>;
  /** Every candidate seen, kept open: the named one may be deleted before its id shows. */
  private readonly _held = new HeldFiles();

  constructor(
    private readonly _env: NodeJS.ProcessEnv,
    private readonly _cwd: string,
    private readonly _startedAt: Date,
    private readonly _beside: GeminiBeside,
  ) {
    const dir = this.chatsDir();
    this._sizesAtStart = dir === undefined ? new Map() : sizesUntouchedSince(listChats(dir).map((name) => join(dir, name)), _startedAt);
  }

  /** The chats folder of this cwd's project, when Gemini has registered it. */
  chatsDir(): string | undefined {
    const home = geminiHome(this._env);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(home, 'projects.json'), 'utf8'));
    } catch {
      // Not written yet (Gemini registers the project at startup) or unreadable: look again later.
      return undefined;
    }
    const parsed = ProjectsFile.safeParse(raw);
    const slug = parsed.success ? parsed.data.projects[this._cwd] : undefined;
    return slug === undefined ? undefined : join(home, 'tmp', slug, 'chats');
  }

  choose(witness: SessionWitness<GeminiPrompt>, strings: GeminiStrings): SessionChoice {
    const candidates = this._candidates();
    this._held.hold(candidates);
    if (witness.sessionId !== undefined) {
      const file = this._fileOf(witness.sessionId);
      // Gemini deletes a session with nothing worth resuming as it quits: if it was never seen here, nothing here is ours.
      if (file === undefined) return { type: 'named_gone', sessionId: witness.sessionId };
      const heldFd = this._held.take(file);
      return { type: 'named', file: { file, from: this.runStartsAt(file), ...(heldFd !== undefined ? { heldFd } : {}) } };
    }
    const shown = witness.userMessages.map(squash).filter((m) => m !== '');
    if (shown.length === 0) return { type: 'fits', files: [] };
    const shownEver = [...shown, ...(witness.shownEver ?? []).map(squash).filter((m) => m !== '')];
    const scored: Array<{ file: string; score: number; mayBeOurs: boolean }> = [];
    for (const file of candidates) {
      const peeked = peek(file, strings);
      // It ran a call this run refused: a twin that approved it.
      if ((witness.refused ?? []).some((p) => peeked.ranCalls.some((c) => promptShowsCall(p, c)))) continue;
      const messages = peeked.userMessages.map(squash);
      const score = shown.filter((s) => messages.some((m) => shownAs(m, s))).length;
      const mayBeOurs = messages.every((m) => shownEver.some((s) => shownAs(m, s)));
      scored.push({ file, score, mayBeOurs });
    }
    const best = Math.max(0, ...scored.map((c) => c.score));
    const fits = best === 0 ? [] : scored.filter((c) => c.score === best);
    const [only] = fits;
    // Our own file, trailing: it holds less so far, yet nothing another session said.
    const trailing = fits.length === 1 ? scored.filter((c) => c !== only && c.mayBeOurs) : [];
    const tied = trailing.length > 0 && this._beside() !== false ? [...fits, ...trailing] : fits;
    return { type: 'fits', files: tied.map((c) => ({ file: c.file, from: this.runStartsAt(c.file) })) };
  }

  /** Opens every candidate not held yet (a listing and a stat: cheap enough for every poll). */
  holdCandidates(): void {
    this._held.hold(this._candidates());
  }

  /** Where this run's part of a chat file begins (a resumed session's file holds earlier turns). */
  runStartsAt(file: string): RunStart {
    return runStartOffset(file, this._startedAt, geminiRecordTime, this._sizesAtStart.get(file));
  }

  /**
   * The chat file of session `id`: named after its first 8 characters, its metadata line says it
   * whole. A file held open counts even if Gemini has deleted it since.
   */
  private _fileOf(id: string): string | undefined {
    const fileName = (name: string) => name.startsWith('session-') && name.endsWith(`-${id.slice(0, 8)}.jsonl`);
    for (const [file, fd] of this._held.entries()) {
      if (fileName(basename(file)) && sessionIdIn(readHeadOf(fd, PEEK_MAX_BYTES)) === id) return file;
    }
    const dir = this.chatsDir();
    if (!dir) return undefined;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      // No chats folder: Gemini wrote no session here.
      return undefined;
    }
    for (const name of names) {
      if (!fileName(name)) continue;
      const file = join(dir, name);
      if (sessionIdIn(readHead(file, PEEK_MAX_BYTES)) === id) return file;
    }
    return undefined;
  }

  /** Closes the candidates held open. */
  dispose(): void {
    this._held.dispose();
  }

  private _candidates(): string[] {
    const dir = this.chatsDir();
    if (!dir) return [];
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      // The chats folder appears with the first session of the project.
      return [];
    }
    const since = this._startedAt.getTime() - START_SLACK_MS;
    const files: string[] = [];
    for (const name of names) {
      if (!/^session-.*\.jsonl$/.test(name)) continue;
      const file = join(dir, name);
      try {
        if (statSync(file).mtimeMs >= since) files.push(file);
      } catch {
        // Deleted since it was listed (Gemini deletes sessions with nothing worth resuming).
      }
    }
    return files;
  }
}

/**
 * When Gemini wrote a record: a message's `timestamp`, or the `lastUpdated` a `{"$set": …}` line
 * carries (Gemini stamps the file with it after each message; the last one before a resume is the
 * earlier session's, measured on 0.61.0).
 */
function geminiRecordTime(text: string): number | undefined {
  const t = isoTimestampOf(text);
  if (t !== undefined) return t;
  const m = /^\{"\$set":\{"lastUpdated":"([^"]+)"\}\}$/.exec(text);
  const u = m ? Date.parse(m[1]!) : NaN;
  return Number.isFinite(u) ? u : undefined;
}

/** The session id a chat file's first line (its metadata record) names. */
function sessionIdIn(data: Buffer | undefined): string | undefined {
  const first = data?.subarray(0, Math.max(0, data.indexOf(0x0a))).toString('utf8');
  const record = first ? parseGeminiLine(first) : undefined;
  return record?.type === 'metadata' ? record.metadata.sessionId : undefined;
}

function listChats(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => /^session-.*\.jsonl$/.test(name));
  } catch {
    // The chats folder appears with the first session of the project.
    return [];
  }
}

/** The user's messages of a candidate (a resumed session's earlier ones too: Gemini shows them again). */
function peek(file: string, strings: GeminiStrings): { userMessages: string[]; ranCalls: KnownCall[] } {
  const data = readHead(file, PEEK_MAX_BYTES);
  if (data === undefined) return { userMessages: [], ranCalls: [] };
  const out: string[] = [];
  const ran = new Map<string, KnownCall>();
  for (const line of data.toString('utf8').split('\n')) {
    const record = line.trim() === '' ? undefined : parseGeminiLine(line);
    if (record?.type !== 'message') continue;
    const words = userWords(record.message, strings);
    if (words !== undefined) out.push(words);
    // Only `success` says it ran: a refused call is `cancelled`, a policy refusal an `error`.
    for (const c of record.message.toolCalls ?? []) {
      if (c.status === 'success') ran.set(c.id, { callId: c.id, toolName: c.name, toolInput: c.args ?? null, order: ran.size + 1 });
    }
  }
  return { userMessages: out, ranCalls: [...ran.values()] };
}

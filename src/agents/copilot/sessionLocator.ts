// Which events.jsonl is this run's (docs/copilot.md §1 "Files", "Which run holds a session
// folder", §7). Copilot keeps each session in $COPILOT_HOME/session-state/<sessionId>/; its
// events.jsonl appears only with the first prompt, and a resumed session (`--continue`,
// `--resume`) appends to the same file, its first new line a `session.resume`. What it guarantees:
//   - `named`: Copilot showed the session id itself (`copilot --resume=<id>` in the summary it prints
//     as it exits), so that folder's events.jsonl is this run's, a resumed one included.
//   - `named_gone`: it named a session with no events.jsonl: the run sent no prompt, so no file is
//     ours. Copilot deletes no session (not at exit, not a deny-only one), so unlike Gemini's chooser
//     nothing is held open against a deletion and there is no holdCandidates.
//   - `fits`: of the candidates, those that hold the most of what the screen showed, in its order:
//     the user messages (as `user.message` `content`, earlier turns of a resumed session included:
//     Copilot draws them again) and the prompt on screen (a `permission.requested` of this run's
//     part, written before the prompt is drawn). A candidate lacks a prompt this run refused when it
//     has no request of this run's part that shows it and was not approved: ours wrote that request
//     before drawing the prompt, and a twin that approved the same call is not ours. Two sessions
//     given the same words fit equally; the recorder then binds neither, unless the lock below
//     breaks the tie.
// A candidate is an events.jsonl written since the run started whose part from the run's start on
// (the first record stamped at or after it: every line is stamped) begins with the `session.start`
// of a session this run created or the `session.resume` of one it resumed, whose context cwd is the
// run's. A session another Copilot started or resumed before this run, still writing, begins its
// part with something else and is left out: its session.start/resume is stamped with its own
// process's start, not with the first prompt that writes it (measured on 1.0.102's fixtures).
//
// The inuse lock: Copilot's native binary holds `inuse.<pid>.lock` in its session folder while it
// runs (a resumed one from its first prompt on), and that pid is a descendant of the process rec
// spawned. Given the pids of the run's process tree (`runPids`, read from /proc by the profile), a
// lock breaks a tie between equal fits: it never makes a fit of a file that shows nothing of the
// screen, so a stale lock of a crashed Copilot whose pid was reused cannot bind a file by itself.
// And a fit whose folder is locked by a live process outside this run, and not by one of ours, is
// another Copilot's running session (a twin given the same words, whose file holds them while ours,
// written only with our first prompt, may not exist yet): it is left out.
import { closeSync, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { processExists } from '../common/processTable.js';
import type { SessionChoice, SessionFileRef, SessionWitness } from '../common/agentProfile.js';
import { isoTimestampOf, runBoundsIn, runStartOffset, type RunStart } from '../common/runPart.js';
import { copilotHome } from './home.js';
import type { CopilotPrompt } from './promptBox.js';
import { judgeDecision, parseEventLine, PermissionCompleted, PermissionRequested, SessionResume, SessionStart, UserMessage } from './sessionRecords.js';

/** How much of a candidate's end is read: its run's part and the earlier turns the screen redraws. */
const PEEK_MAX_BYTES = 8 * 1024 * 1024;
/** A file whose mtime is this much older than the run's start may still be ours (coarse clocks). */
const START_SLACK_MS = 2_000;
/** A message or command the screen shows only in part (clipped) still counts from this length on. */
const MIN_PARTIAL_CHARS = 24;


const squash = (s: string) => s.replace(/\s+/g, '');

/** One `permission.requested` of the run's part, and whether its decision was an approval. */
interface Request {
  readonly request: z.infer<typeof PermissionRequested>['permissionRequest'];
  readonly approved: boolean;
}

/** What a candidate holds, read once per scan. */
export interface PeekedEvents {
  /** Where the run's part begins: the byte offset of its session.start or session.resume. */
  readonly from: number;
  /** The cwd that record's context names. */
  readonly cwd: string | undefined;
  /** Every user message in the bytes read, earlier turns included, in file order. */
  readonly userMessages: readonly string[];
  /** The prompts of the run's part, in file order. */
  readonly requests: readonly Request[];
}

export interface CopilotChooserOptions {
  /** The pids of the run's process tree, now (the spawned loader and its descendants). */
  readonly runPids?: () => ReadonlySet<number>;
}

export class CopilotSessionChooser {
  constructor(
    private readonly _env: NodeJS.ProcessEnv,
    private readonly _cwd: string,
    private readonly _startedAt: Date,
    private readonly _options: CopilotChooserOptions = {},
  ) {}

  choose(witness: SessionWitness<CopilotPrompt>): SessionChoice {
    if (witness.sessionId !== undefined) {
      const file = this._eventsFileOf(witness.sessionId);
      if (file === undefined || !isFile(file)) return { type: 'named_gone', sessionId: witness.sessionId };
      return { type: 'named', file: { file, from: this.runStartsAt(file) } };
    }
    const shown = witness.userMessages.map(squash).filter((m) => m !== '');
    const scored: Array<{ ref: SessionFileRef; score: number }> = [];
    for (const file of this._candidates()) {
      const peeked = peekEvents(file, this._startedAt);
      if (peeked === undefined || peeked.cwd === undefined || !samePath(peeked.cwd, this._cwd)) continue;
      // A prompt this run refused that this file never asked, or asked and had approved: a twin's.
      const refused = witness.refused ?? [];
      if (!refused.every((p) => peeked.requests.some((r) => !r.approved && promptShowsRequest(p, r.request)))) continue;
      const prompt = witness.prompt;
      const promptShown = prompt !== undefined && peeked.requests.some((r) => promptShowsRequest(prompt, r.request));
      scored.push({ ref: { file, from: peeked.from }, score: inOrder(shown, peeked.userMessages.map(squash)) + (promptShown ? 1 : 0) });
    }
    return { type: 'fits', files: this._byLocks(bestFits(scored)) };
  }

  /** Where this run's part of an events file begins (a resumed session's file holds earlier turns). */
  runStartsAt(file: string): RunStart {
    return runStartOffset(file, this._startedAt, isoTimestampOf);
  }

  /** The events file of the folder Copilot names after the session id (a UUID: anything else names no folder). */
  private _eventsFileOf(id: string): string | undefined {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
    return join(copilotHome(this._env), 'session-state', id, 'events.jsonl');
  }

  /** Every session folder's events.jsonl written since the run started (one listing, one stat each). */
  private _candidates(): string[] {
    const root = join(copilotHome(this._env), 'session-state');
    let names: string[];
    try {
      names = readdirSync(root);
    } catch {
      // No session yet under this home: Copilot creates the folder at its first start.
      return [];
    }
    const since = this._startedAt.getTime() - START_SLACK_MS;
    const files: string[] = [];
    for (const name of names) {
      const file = join(root, name, 'events.jsonl');
      try {
        if (statSync(file).mtimeMs >= since) files.push(file);
      } catch {
        // No events.jsonl: a session with no prompt yet (or not a session folder).
      }
    }
    return files;
  }

  /** The fits without another live run's sessions; of those left, the ones a process of this run holds, when some are. */
  private _byLocks(fits: SessionFileRef[]): SessionFileRef[] {
    if (fits.length === 0 || this._options.runPids === undefined) return fits;
    const pids = this._options.runPids();
    const locked = fits.map((f) => ({ f, locks: lockPids(join(f.file, '..')) }));
    const ours = (l: { locks: number[] }) => l.locks.some((pid) => pids.has(pid));
    const left = locked.filter((l) => ours(l) || !l.locks.some(processExists));
    const held = left.filter(ours);
    return (held.length > 0 ? held : left).map((l) => l.f);
  }
}

/**
 * The candidates that show the most of what the screen shows: one lacking something another has is
 * not ours, unless ours trails the screen, which the recorder's settle time allows for.
 */
function bestFits(scored: ReadonlyArray<{ ref: SessionFileRef; score: number }>): SessionFileRef[] {
  const best = Math.max(0, ...scored.map((c) => c.score));
  return best === 0 ? [] : scored.filter((c) => c.score === best).map((c) => c.ref);
}

/**
 * How many of the shown messages the file holds in the screen's order (greedily: each one after
 * the last matched). The screen may show only the latest of them (the history scrolls), and a
 * message it clips still counts by its start.
 */
export function inOrder(shown: readonly string[], messages: readonly string[]): number {
  let at = 0;
  let n = 0;
  for (const s of shown) {
    let i = at;
    while (i < messages.length && !(messages[i] === s || (s.length >= MIN_PARTIAL_CHARS && messages[i]!.startsWith(s)))) i++;
    if (i === messages.length) continue;
    n++;
    at = i + 1;
  }
  return n;
}

/** Whether a prompt as the screen shows it asks what this `permission.requested` asks. */
export function promptShowsRequest(prompt: CopilotPrompt, request: Request['request']): boolean {
  const field = (key: string) => (typeof request[key] === 'string' ? (request[key] as string) : undefined);
  const same = (shown: string | undefined, asked: string | undefined) => {
    if (shown === undefined || asked === undefined) return false;
    const [a, b] = [squash(shown), squash(asked)];
    return a === b || (a.length >= MIN_PARTIAL_CHARS && b.startsWith(a));
  };
  switch (prompt.body) {
    case 'command':
      return request.kind === 'shell' && same(prompt.command, field('fullCommandText'));
    case 'file':
      return request.kind === 'write' && same(prompt.details['path'], field('fileName'));
    case 'path':
      return request.kind === 'read' && same(prompt.details['path'], field('path'));
    case 'url':
      return request.kind === 'url' && same(prompt.details['url'], field('url'));
    case 'tool':
      // The box's title is the tool's; its arguments are drawn as wrapped JSON, not compared.
      return request.kind === 'mcp' && same(prompt.details['tool'], field('toolTitle'));
  }
}

/** The pids of the `inuse.<pid>.lock` files in a session folder. */
function lockPids(dir: string): number[] {
  try {
    return readdirSync(dir).flatMap((name) => {
      const m = /^inuse\.(\d+)\.lock$/.exec(name);
      return m ? [Number(m[1])] : [];
    });
  } catch {
    // The folder went away: no process holds it.
    return [];
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    // Not there: the session wrote no event.
    return false;
  }
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    // One of them does not exist (any more): they are not the same folder.
    return false;
  }
}

/** Up to PEEK_MAX_BYTES from the end of `file`, from its first whole line; undefined when gone. */
function readTail(file: string): { data: Buffer; base: number } | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    // Gone since it was listed: not a candidate.
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const base = Math.max(0, size - PEEK_MAX_BYTES);
    const buf = Buffer.alloc(size - base);
    const data = buf.subarray(0, readSync(fd, buf, 0, buf.length, base));
    // From the middle of a line (a long file read from its end): skip to the next whole line.
    const skip = base === 0 ? 0 : data.indexOf(0x0a) + 1;
    return { data: data.subarray(skip), base: base + skip };
  } finally {
    closeSync(fd);
  }
}

/**
 * What an events file holds for the chooser: undefined when its part from `startedAt` on does not
 * begin with a session.start or session.resume (not a session this run created or resumed).
 */
export function peekEvents(file: string, startedAt: Date): PeekedEvents | undefined {
  const tail = readTail(file);
  if (tail === undefined) return undefined;
  const from = runBoundsIn(tail.data, startedAt.getTime(), isoTimestampOf).firstOurs;
  // Nothing stamped since the start: an older session touched within the mtime slack.
  if (from >= tail.data.length) return undefined;
  const userMessages: string[] = [];
  const requests = new Map<string, Request>();
  let cwd: string | undefined;
  let offset = 0;
  for (const line of tail.data.toString('utf8').split('\n')) {
    const at = offset;
    offset += Buffer.byteLength(line) + 1;
    const record = parseEventLine(line);
    if (record === undefined) continue;
    if (at === from) {
      const opening = record.type === 'session.start' ? SessionStart.safeParse(record.data) : record.type === 'session.resume' ? SessionResume.safeParse(record.data) : undefined;
      if (!opening?.success) return undefined;
      cwd = opening.data.context?.cwd;
    }
    if (record.type === 'user.message') {
      const m = UserMessage.safeParse(record.data);
      if (m.success) userMessages.push(m.data.content);
    }
    if (at < from) continue;
    if (record.type === 'permission.requested') {
      const r = PermissionRequested.safeParse(record.data);
      if (r.success) requests.set(r.data.requestId, { request: r.data.permissionRequest, approved: false });
    } else if (record.type === 'permission.completed') {
      const c = PermissionCompleted.safeParse(record.data);
      const asked = c.success ? requests.get(c.data.requestId) : undefined;
      if (c.success && asked) requests.set(c.data.requestId, { ...asked, approved: judgeDecision(c.data, asked.request.kind).type === 'approval' });
    }
  }
  return { from: tail.base + from, cwd, userMessages, requests: [...requests.values()] };
}

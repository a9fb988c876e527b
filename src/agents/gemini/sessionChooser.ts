// Which chat file is this run's when no hook named it: the newest
// <gemini home>/tmp/<slug>/chats/session-*.jsonl written since the run started, where <slug> is this
// cwd's entry in <gemini home>/projects.json, confirmed by the screen — one of the user's messages
// the screen shows is a user message of the file. Until one is confirmed none is followed, so
// another Gemini session in the same folder is never mistaken for ours.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { geminiHomeDir } from './geminiHome.js';
import { parseGeminiLine, userWords } from './sessionRecords.js';
import type { GeminiStrings } from './strings/index.js';

/** How much of a candidate is read to confirm it; its first turns are far smaller. */
const PEEK_MAX_BYTES = 4 * 1024 * 1024;
/** A file whose mtime is this much older than the run's start may still be ours (coarse clocks). */
const START_SLACK_MS = 2_000;
/** A message the screen shows only in part (clipped) still counts from this length on. */
const MIN_PARTIAL_MESSAGE_CHARS = 24;

const ProjectsFile = z.object({ projects: z.record(z.string(), z.string()) });

const squash = (s: string) => s.replace(/\s+/g, '');

export class SessionChooser {
  constructor(
    private readonly _env: NodeJS.ProcessEnv,
    private readonly _cwd: string,
    private readonly _startedAt: Date,
  ) {}

  /** The chats folder of this cwd's project, when Gemini has registered it. */
  chatsDir(): string | undefined {
    const home = geminiHomeDir(this._env);
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

  /** The newest candidate the screen confirms, or undefined. */
  choose(shownMessages: readonly string[], strings: GeminiStrings): string | undefined {
    const shown = shownMessages.map(squash).filter((m) => m !== '');
    if (shown.length === 0) return undefined;
    for (const file of this._candidates()) {
      const messages = peekUserMessages(file, strings).map(squash);
      const seen = shown.some((s) => messages.some((m) => m === s || (s.length >= MIN_PARTIAL_MESSAGE_CHARS && m.startsWith(s))));
      if (seen) return file;
    }
    return undefined;
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
    const files: Array<{ file: string; mtime: number }> = [];
    for (const name of names) {
      if (!/^session-.*\.jsonl$/.test(name)) continue;
      const file = join(dir, name);
      try {
        const mtime = statSync(file).mtimeMs;
        if (mtime >= since) files.push({ file, mtime });
      } catch {
        // Deleted since it was listed (Gemini deletes sessions with nothing worth resuming).
      }
    }
    return files.sort((a, b) => b.mtime - a.mtime).map((f) => f.file);
  }
}

function peekUserMessages(file: string, strings: GeminiStrings): string[] {
  let text: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const size = Math.min(fstatSync(fd).size, PEEK_MAX_BYTES);
      const buf = Buffer.alloc(size);
      text = buf.subarray(0, readSync(fd, buf, 0, size, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    // Removed or unreadable since it was listed: not a candidate any more.
    return [];
  }
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const record = line.trim() === '' ? undefined : parseGeminiLine(line);
    if (record?.type !== 'message') continue;
    const words = userWords(record.message, strings);
    if (words !== undefined) out.push(words);
  }
  return out;
}

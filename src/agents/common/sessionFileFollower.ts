// Follows this run's session file: one a hook names takes precedence over one found by scanning
// (the agent's own word against a match on the screen), and once one is followed a scan never
// replaces it. Some agents write part of a run beside it (Claude's subagents/agent-*.jsonl): those
// companion files are looked for on discover() and followed like the main one. Each complete line
// is handed out once, with the file it came from.
import { closeSync } from 'node:fs';
import { JsonlFollower, type JsonlLine } from './jsonlFollower.js';
import type { RunStart } from './runPart.js';

export class SessionFileFollower {
  private _follower: JsonlFollower | undefined;
  private _fromHook = false;
  private readonly _companions = new Map<string, JsonlFollower>();
  private _closed = false;

  constructor(
    private readonly _onLine: (line: JsonlLine) => void,
    /** The companion files written so far beside the main file (none by default). */
    private readonly _listCompanions: (mainFile: string) => readonly string[] = () => [],
  ) {}

  /** The file followed, once one is known. */
  get file(): string | undefined {
    return this._follower?.file;
  }

  /**
   * Starts following `file`; a file a hook reported replaces one found by scanning, never the
   * reverse. Lines before byte `from` (a resumed session's earlier turns) are handed out as `earlier`.
   * `heldFd`, a descriptor of `file` opened earlier (the file may be deleted since), is owned from
   * here on: read through, or closed if this file is not followed.
   */
  follow(file: string, fromHook: boolean, from: RunStart = 0, heldFd?: number): void {
    const taken = !this._closed && this._follower?.file !== file && !(this._follower && (this._fromHook || !fromHook));
    if (!taken) {
      if (heldFd !== undefined) closeSync(heldFd);
      return;
    }
    this._fromHook = fromHook;
    // Another main file: the companions found beside the old one are not this run's.
    this._closeFiles();
    this._follower = new JsonlFollower(file, this._onLine, from, heldFd);
    this._follower.poll();
  }

  /** Closes every file followed; nothing is read after this. */
  close(): void {
    this._closed = true;
    this._closeFiles();
  }

  private _closeFiles(): void {
    this._follower?.close();
    for (const follower of this._companions.values()) follower.close();
    this._companions.clear();
  }

  /**
   * Looks for companion files that appeared since the last look (a directory listing: not on a
   * key's path); the next poll reads them, after the main file, whose lines (the call that started
   * a subagent) come first.
   */
  discover(): void {
    const main = this._follower?.file;
    if (main === undefined || this._closed) return;
    for (const file of this._listCompanions(main)) {
      if (!this._companions.has(file)) this._companions.set(file, new JsonlFollower(file, this._onLine));
    }
  }

  /** Reads what was appended since the last poll: the main file first, then its companions. */
  poll(): void {
    this._follower?.poll();
    for (const follower of this._companions.values()) follower.poll();
  }
}

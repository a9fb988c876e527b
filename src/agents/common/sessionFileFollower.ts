// Follows this run's session file: one a hook names takes precedence over one found by scanning
// (the agent's own word against a match on the screen), and once one is followed a scan never
// replaces it. Each complete line is handed out once, with the file it came from.
import { JsonlFollower, type JsonlLine } from './jsonlFollower.js';

export class SessionFileFollower {
  private _follower: JsonlFollower | undefined;
  private _fromHook = false;

  constructor(private readonly _onLine: (line: JsonlLine) => void) {}

  /** The file followed, once one is known. */
  get file(): string | undefined {
    return this._follower?.file;
  }

  /** Starts following `file`; a file a hook reported replaces one found by scanning, never the reverse. */
  follow(file: string, fromHook: boolean): void {
    if (this._follower?.file === file) return;
    if (this._follower && (this._fromHook || !fromHook)) return;
    this._fromHook = fromHook;
    this._follower = new JsonlFollower(file, this._onLine);
    this._follower.poll();
  }

  /** Reads what was appended since the last poll. */
  poll(): void {
    this._follower?.poll();
  }
}

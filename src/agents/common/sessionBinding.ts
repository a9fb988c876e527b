// Which session file a run binds, from what its profile's chooser answers (agentProfile.ts
// SessionChoice): a file the agent named, or a lone fit, and only while nothing casts doubt on it
// (a wrong call id is worse than none). Keeps what that takes over the run: when the screen first showed each witness
// (WITNESS_SETTLE_MS), the files once tied, and whether the agent named a session that is gone.
import { existsSync } from 'node:fs';
import type { PromptView, ScreenReading, SessionChoice, SessionFileRef, SessionWitness } from './agentProfile.js';

/**
 * How long the screen must have shown something (a user message, a prompt) before it counts as a
 * witness of which session file is this run's. The agent writes our own file a moment after it
 * draws (Codex's daemon had both panes' rollouts written by the time either prompt was drawn, issue
 * 19): in that moment another session's file, given the same words, may be the only one that holds
 * them. What was shown this long ago, our own file holds too, so the other is not its only fit. A
 * file that trails by more (a loaded machine) only delays the binding, unless a second session in
 * the same folder was given the same words; the session id the agent shows at exit settles that.
 */
export const WITNESS_SETTLE_MS = 1_000;

const squash = (s: string) => s.replace(/\s+/g, '');

export class SessionBinding<P extends PromptView = PromptView> {
  /** When the screen first showed each user message (whitespace dropped). */
  private readonly _messageSeen = new Map<string, number>();
  /** The prompt on screen and when it first showed. */
  private _promptSeen: { readonly identity: string; readonly since: number } | undefined;
  /** The session id the agent last showed (Codex and Gemini print it as they exit). */
  private _sessionId: string | undefined;
  /** Every file seen fitting as well as another: if one of them is gone, a lone fit proves nothing. */
  private readonly _tiedFiles = new Set<string>();
  /** The agent named a session whose file is gone (Gemini deletes a deny-only one): bind nothing else. */
  private _namedGone = false;
  /** Why the chooser last held a lone fit back (logged once per change). */
  private _heldBack: string | undefined;
  /** How many candidates fitted equally, the last time more than one did (0: never). */
  ambiguousCandidates = 0;

  constructor(
    private readonly _settleMs: number,
    private readonly _debug: (message: string) => void,
  ) {}

  /** Notes what a newly rendered screen shows, at `now`. */
  screenShown(screen: ScreenReading<P>, now: number): void {
    for (const m of screen.userMessages) if (!this._messageSeen.has(squash(m))) this._messageSeen.set(squash(m), now);
    const prompt = screen.prompt;
    if (prompt && this._promptSeen?.identity !== prompt.identity) this._promptSeen = { identity: prompt.identity, since: now };
    if (screen.sessionId !== undefined) this._sessionId = screen.sessionId;
  }

  /** What to hand the chooser: what was shown WITNESS_SETTLE_MS ago or more, all ever shown, the id, the refusals. */
  witness(now: number, userMessages: readonly string[], prompt: P | undefined, refused: readonly P[]): SessionWitness<P> {
    const settled = (since: number | undefined) => since !== undefined && now - since >= this._settleMs;
    return {
      userMessages: userMessages.filter((m) => settled(this._messageSeen.get(squash(m)))),
      shownEver: [...this._messageSeen.keys()],
      ...(prompt && this._promptSeen?.identity === prompt.identity && settled(this._promptSeen.since) ? { prompt } : {}),
      ...(this._sessionId !== undefined ? { sessionId: this._sessionId } : {}),
      ...(refused.length > 0 ? { refused } : {}),
    };
  }

  /** The file to follow for this choice, if it is provably this run's. */
  bind(choice: SessionChoice): SessionFileRef | undefined {
    if (choice.type === 'named') {
      this._debug(`session file named by the agent: ${choice.file.file}`);
      return choice.file;
    }
    if (choice.type === 'named_gone' || this._namedGone) {
      if (!this._namedGone) this._debug(`session ${choice.type === 'named_gone' ? choice.sessionId : ''} named by the agent has no file: none is bound`);
      this._namedGone = true;
      return undefined;
    }
    if (choice.heldBack !== undefined && this._heldBack !== choice.heldBack) this._debug(`session file not taken from a lone fit: ${choice.heldBack}`);
    this._heldBack = choice.heldBack;
    const [only, ...others] = choice.files;
    if (only && others.length === 0) {
      const gone = [...this._tiedFiles].filter((f) => f !== only.file && !existsSync(f));
      if (gone.length > 0) {
        // A file that fitted as well is gone: it may have been ours (deleted at exit), so the one left proves nothing.
        this._debug(`session ambiguous: ${gone.length} file(s) that fitted as well are gone`);
        return undefined;
      }
      this._debug(`session file, the only one holding what the screen showed: ${only.file}`);
      return only;
    }
    if (others.length > 0) {
      // Several fit equally: bind none, and wait for a witness that separates them.
      if (this.ambiguousCandidates !== choice.files.length) this._debug(`session ambiguous: ${choice.files.length} candidates fit the screen`);
      this.ambiguousCandidates = choice.files.length;
      for (const f of choice.files) this._tiedFiles.add(f.file);
    }
    return undefined;
  }
}

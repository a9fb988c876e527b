// The prompt a half-drawn frame hides, for agents that redraw only the cells that changed (Copilot):
// a frame read between two writes may show half a box, and a key pressed then still answers the
// prompt the next write completes. The last prompt seen whole stands in for it, but only briefly
// and only while nothing says it is gone.
import type { PromptView, ScreenReading } from './agentProfile.js';
import type { RecorderClock } from './recorderClock.js';
import type { CallState } from './callLedger.js';
import type { PromptInstance } from './promptBook.js';

/**
 * How long a prompt missing from the screen may still be behind a torn frame (the moment between
 * two writes of one frame): far longer than that moment, even on a loaded machine; a key later than
 * this does not answer that prompt.
 */
export const TORN_FRAME_MS = 500;

export class TornFrame<P extends PromptView> {
  private _last: { readonly prompt: PromptInstance<P>; readonly decisionRows: number; readonly goneSince?: number } | undefined;

  constructor(private readonly _clock: RecorderClock) {}

  /** Each screen read: the open prompt, if one is shown whole, and the decision rows then. */
  read(open: PromptInstance<P> | undefined, decisionRows: number): void {
    if (open) this._last = { prompt: open, decisionRows };
    else if (this._last && this._last.goneSince === undefined) this._last = { ...this._last, goneSince: this._clock.now() };
  }

  /**
   * The last prompt seen whole, if it may be hidden by a torn frame now: still undecided, with no
   * decision row, no working turn, no word of the file on its call and no more than TORN_FRAME_MS
   * since it went (each of those would mean it is really gone).
   */
  hidden(now: Pick<ScreenReading<P>, 'prompt' | 'working' | 'decisionRows'>, callOf: (callId: string) => CallState | undefined): PromptInstance<P> | undefined {
    const last = this._last;
    if (!last || last.prompt.decision || now.prompt || now.working) return undefined;
    // The agent's file already holds the call's decision or its end: the prompt was answered (by a key rec did not take as its).
    const call = last.prompt.callId !== undefined ? callOf(last.prompt.callId) : undefined;
    if (call?.fileDecision !== undefined || call?.output !== undefined) return undefined;
    if (last.goneSince !== undefined && this._clock.now() - last.goneSince > TORN_FRAME_MS) return undefined;
    return last.decisionRows === now.decisionRows ? last.prompt : undefined;
  }
}

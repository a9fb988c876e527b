// The calls this run's agent proposed, as its session file and hooks describe them, with what is
// known of each one's fate. Shared by every agent's recorder.
import type { Ran } from '../../core/events.js';

export interface KnownCall {
  readonly callId: string;
  readonly toolName: string;
  /** Parsed arguments (object) or raw input (freeform tools). */
  readonly toolInput: unknown;
  readonly turnId?: string;
  /** The order the call was first seen in (session file or hook). */
  readonly order: number;
}

export type CallFate = 'approved' | 'rejected' | 'skipped' | 'interrupted' | 'prompt_open';

export interface CallState extends KnownCall {
  output?: string;
  aborted?: boolean;
  ran?: Ran;
  fate?: CallFate;
  /** What the agent's own file says about the call, verbatim where short. */
  native: Record<string, unknown>;
  /** True once the session file (not only a hook) described the call. */
  fromSessionFile: boolean;
  /** The file's own word for a person's decision on the call (SessionFact `output`.decision). */
  fileDecision?: string;
}

export class CallLedger {
  private readonly _calls = new Map<string, CallState>();
  private _order = 0;

  get(callId: string | undefined): CallState | undefined {
    return callId === undefined ? undefined : this._calls.get(callId);
  }

  all(): CallState[] {
    return [...this._calls.values()];
  }

  /**
   * Records a call; returns it when it is new, or when the session file now describes a call only a
   * hook had (its name and input are then the file's).
   */
  learn(callId: string, toolName: string, toolInput: unknown, turnId: string | undefined, fromSessionFile: boolean): { call: CallState; isNew: boolean } | undefined {
    const known = this._calls.get(callId);
    if (known) {
      if (!fromSessionFile || known.fromSessionFile) return undefined;
      Object.assign(known, { toolName, toolInput, fromSessionFile: true, ...(turnId ? { turnId } : {}) });
      return { call: known, isNew: false };
    }
    const call: CallState = { callId, toolName, toolInput, order: ++this._order, native: {}, fromSessionFile, ...(turnId ? { turnId } : {}) };
    this._calls.set(callId, call);
    return { call, isNew: true };
  }

  /** Calls with no fate and no output yet that no prompt has claimed. */
  pending(claimed: ReadonlySet<string>): CallState[] {
    return this.all().filter((c) => c.fate === undefined && c.output === undefined && !claimed.has(c.callId));
  }

  /** The latest approved call with no output yet: the one running now. */
  running(): CallState | undefined {
    return this.all()
      .filter((c) => c.fate === 'approved' && c.output === undefined)
      .sort((a, b) => b.order - a.order)[0];
  }

  inTurn(turnId: string): CallState[] {
    return this.all().filter((c) => c.turnId === turnId);
  }
}

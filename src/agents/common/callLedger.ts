// The calls this run's agent proposed, as its session file and hooks describe them, with what is
// known of each one's fate. Shared by every agent's recorder. The ledger is the only writer of its
// calls: others read them (CallState is read-only) and ask the ledger for every change.
import type { Ran } from '../../core/events.js';

/** `native` keeps the session file's own words; long tool output is cut to this many characters. */
const NATIVE_OUTPUT_MAX_CHARS = 2_000;

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
  readonly output?: string;
  readonly aborted?: boolean;
  readonly ran?: Ran;
  readonly fate?: CallFate;
  /** What the agent's own file says about the call, verbatim where short. */
  readonly native: Readonly<Record<string, unknown>>;
  /** True once the session file (not only a hook) described the call. */
  readonly fromSessionFile: boolean;
  /** The file's own word for a person's decision on the call (SessionFact `output`.decision). */
  readonly fileDecision?: string;
  /** How many messages the user had sent when a hook told the call first (unset when the file did). */
  readonly hookToldAt?: number;
}

/** What the session file says a call produced (SessionFact `output`). */
export interface CallOutput {
  readonly text: string;
  readonly aborted: boolean;
  readonly native?: Readonly<Record<string, unknown>>;
  readonly decision?: string;
}

/** The ledger's own, writable copy of a call. */
type LedgerCall = { -readonly [K in keyof CallState]: CallState[K] } & { native: Record<string, unknown> };

export class CallLedger {
  private readonly _calls = new Map<string, LedgerCall>();
  private _order = 0;
  private _spoken = 0;

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
    const call: LedgerCall = { callId, toolName, toolInput, order: ++this._order, native: {}, fromSessionFile, ...(turnId ? { turnId } : {}), ...(fromSessionFile ? {} : { hookToldAt: this._spoken }) };
    this._calls.set(callId, call);
    return { call, isNew: true };
  }

  /**
   * The user sent a message. A hook tells a call as the agent proposes it, never late: a call a hook
   * tells after this is of a later turn than every prompt decided before it.
   */
  userSpoke(): void {
    this._spoken++;
  }

  /** How many messages the user has sent. */
  get spoken(): number {
    return this._spoken;
  }

  /** Sets the call's fate; undefined takes it back (a decision the agent ignored). */
  setFate(callId: string, fate: CallFate | undefined): void {
    const call = this._calls.get(callId);
    if (!call) return;
    if (fate === undefined) delete call.fate;
    else call.fate = fate;
  }

  /** The file told the call's output: it ran unless the output was cut. */
  recordOutput(callId: string, output: CallOutput): void {
    const call = this._calls.get(callId);
    if (!call) return;
    call.output = output.text;
    call.aborted = output.aborted;
    call.native.output = output.text.length > NATIVE_OUTPUT_MAX_CHARS ? output.text.slice(0, NATIVE_OUTPUT_MAX_CHARS) + '…' : output.text;
    if (output.native) Object.assign(call.native, output.native);
    if (!output.aborted) call.ran = 'yes';
    if (output.decision !== undefined) call.fileDecision = output.decision;
  }

  /** A witness (the file, a hook) says the call ran. */
  markRan(callId: string): void {
    const call = this._calls.get(callId);
    if (call) call.ran = 'yes';
  }

  /** Adds the agent's own words about the call. */
  addNative(callId: string, native: Readonly<Record<string, unknown>>): void {
    const call = this._calls.get(callId);
    if (call) Object.assign(call.native, native);
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

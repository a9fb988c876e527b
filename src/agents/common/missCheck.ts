// Misses detected in the field: after each turn the session file ends, and at exit, the decisions
// the agent's own file shows a person took (SessionFact `output`.decision) are compared with what
// the recorder saw. A call the file says was decided and the recorder saw nothing of (no prompt, no
// decision, no interruption, no skipped row) is a `miss` event: the call, the file's word, and the
// screen as last seen. A wrong miss is as bad as a wrong rejection, so a call counts as seen as soon
// as anything of the recorder's may be about it.
import { escapeControlsKeepLines } from '../../core/controlText.js';
import type { EventKind, NewEvent } from '../../core/events.js';
import type { BookedEvent } from './eventBook.js';
import type { CallState } from './callLedger.js';

/** The screen kept with a miss: at most this many characters, the rows nearest the bottom. */
export const MISS_SCREEN_MAX_CHARS = 4_000;
/**
 * How many checks an event of the recorder's without a call id (a prompt no call was tied to, an
 * Esc with no running call known) covers the file's decisions for: the check that follows it and
 * the next, since the file's end of a turn may be read a poll after the screen showed the next one.
 */
const UNBOUND_COVERS_CHECKS = 2;
/** The recorder's own events that a person's decision at a prompt, or a cut, leaves. */
const SEEN_TYPES: ReadonlySet<NewEvent['type']> = new Set(['prompt', 'approval', 'rejection', 'interruption', 'skipped']);

export interface MissSource {
  /** Every call known so far. */
  calls(): readonly CallState[];
  /** The recorder's events still standing (retracted ones are gone). */
  events(): readonly BookedEvent[];
  /** Call ids the recorder tied a prompt to. */
  promptedCalls(): ReadonlySet<string>;
  /** The kind a miss of this call gets (command, edit…). */
  kindOf(call: CallState): EventKind;
  /** The screen as last seen where a decision may have been made. */
  screen(): string;
}

export interface MissCount {
  /** The calls the agent's file says a person decided. */
  readonly decided: number;
  /** Of those, the ones the recorder saw nothing of (a `miss` event each). */
  readonly missed: number;
}

export class MissCheck {
  private readonly _judged = new Set<string>();
  private readonly _decided = new Set<string>();
  private _missed = 0;
  /** Events without a call id, with how many checks each has covered. */
  private readonly _unbound = new Map<string, number>();

  constructor(
    private readonly _source: MissSource,
    private readonly _write: (event: Omit<NewEvent, 'ts'>) => void,
  ) {}

  get count(): MissCount {
    return { decided: this._decided.size, missed: this._missed };
  }

  /** Compares the file's decisions read so far with the recorder's events; writes a `miss` for each one unseen. */
  check(): void {
    const events = this._source.events();
    const seen = new Set<string>(this._source.promptedCalls());
    for (const e of events) {
      if (!SEEN_TYPES.has(e.type)) continue;
      if (e.call_id) seen.add(e.call_id);
      else if (!this._unbound.has(e.id)) this._unbound.set(e.id, 0);
    }
    const covering = [...this._unbound.entries()].filter(([id, n]) => n < UNBOUND_COVERS_CHECKS && events.some((e) => e.id === id && !e.call_id));
    const unseen: CallState[] = [];
    for (const call of this._source.calls()) {
      if (call.fileDecision === undefined || this._judged.has(call.callId)) continue;
      this._judged.add(call.callId);
      this._decided.add(call.callId);
      if (!seen.has(call.callId)) unseen.push(call);
    }
    for (const [id, n] of covering) this._unbound.set(id, n + 1);
    // A prompt or a cut of the recorder's that no call was tied to may be about any of them: which
    // one cannot be told, and none is a miss.
    if (unseen.length === 0 || covering.length > 0) return;
    const screen = this._source.screen();
    for (const call of unseen) {
      this._missed++;
      this._write({
        type: 'miss',
        kind: this._source.kindOf(call),
        call_id: call.callId,
        tool_name: call.toolName,
        tool_input: call.toolInput as NewEvent['tool_input'],
        decided_by: null,
        native: { ...call.native, decision: call.fileDecision },
        partial_output: screen,
        evidence: ['session_file', 'screen'],
      });
    }
  }
}

/**
 * The screen's rows as one bounded text, escaped (`\x1b`; rows kept apart by newlines): trailing
 * blank rows dropped, the bottom kept when too long. It is the agent's screen, shown to a person later.
 */
export function screenCapture(lines: readonly string[]): string {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  const text = escapeControlsKeepLines(lines.slice(0, end).join('\n'));
  return text.length > MISS_SCREEN_MAX_CHARS ? '…' + text.slice(text.length - MISS_SCREEN_MAX_CHARS) : text;
}

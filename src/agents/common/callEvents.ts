// What the recorder writes: events stamped on its clock, and what is known of a call (its id, name,
// input, whether it ran, the agent's own words) copied onto every event about it.
import type { NewEvent } from '../../core/events.js';
import type { CallLedger, CallState } from './callLedger.js';
import type { EventBook } from './eventBook.js';
import type { RecorderClock } from './recorderClock.js';

/** The fields an event about `call` carries (none without a call). */
export function callFields(call: CallState | undefined): Partial<NewEvent> {
  if (!call) return {};
  return { call_id: call.callId, tool_name: call.toolName, tool_input: call.toolInput as NewEvent['tool_input'] };
}

export class CallEvents {
  constructor(
    private readonly _book: EventBook,
    private readonly _calls: CallLedger,
    /** Events are stamped on the recorder's clock: a replay's events get the recording's times. */
    private readonly _clock: RecorderClock,
  ) {}

  /** Writes an event (a person decided it unless it says otherwise); returns its id. */
  write(event: Omit<NewEvent, 'ts'>): string {
    return this._book.insert({ decided_by: 'user', ...event, ts: new Date(this._clock.now()).toISOString() }).id;
  }

  /** Writes what is known about a call's outcome onto every event about it. */
  refresh(callId: string): void {
    const call = this._calls.get(callId);
    if (!call) return;
    for (const event of this._book.forCall(call.callId)) {
      const patch: Record<string, unknown> = {};
      if (Object.keys(call.native).length) patch.native = { ...call.native };
      if (call.ran === 'yes' && event.type !== 'interruption') patch.ran = 'yes';
      if (call.fromSessionFile) {
        patch.tool_name = call.toolName;
        patch.tool_input = call.toolInput;
      }
      this._book.update(event.id, patch);
      if (call.output !== undefined || call.native.turn_aborted !== undefined) this._book.addEvidence(event.id, 'session_file');
    }
  }
}

// Decision and fate bookkeeping over an EventSink, shared by the agent recorders: keeps a copy of
// every event written so a recorder can ask "what did I already record for this call?" and add
// details learned later without repeating itself. The sink stays the only place events are stored.
import type { EventPatch, NewEvent, RecEvent } from '../../core/events.js';
import type { EventSink } from '../../core/sink.js';

export type BookedEvent = NewEvent & { readonly id: string };

export class EventBook {
  private readonly _events = new Map<string, BookedEvent>();
  private _localIds = 0;

  constructor(private readonly _sink: EventSink) {}

  /** Writes the event (synchronously, through the sink) and keeps a copy; returns its id. */
  insert(event: NewEvent): BookedEvent {
    // A disabled store returns no id (fail-open); a local id keeps the bookkeeping going.
    const id = this._sink.insertEvent(event) ?? `local-${++this._localIds}`;
    const booked = { ...event, id };
    this._events.set(id, booked);
    return booked;
  }

  /** Adds details; fields already holding the same value are not written again. */
  update(id: string, patch: EventPatch): void {
    const current = this._events.get(id);
    if (!current) return;
    const changed: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (JSON.stringify((current as Record<string, unknown>)[key]) !== JSON.stringify(value)) changed[key] = value;
    }
    if (Object.keys(changed).length === 0) return;
    this._events.set(id, { ...current, ...changed });
    if (!id.startsWith('local-')) this._sink.updateEvent(id, changed as EventPatch);
  }

  /** Adds evidence sources to an event, keeping the ones it had. */
  addEvidence(id: string, ...sources: RecEvent['evidence']): void {
    const current = this._events.get(id);
    if (!current) return;
    const evidence = [...(current.evidence ?? [])];
    for (const s of sources) if (!evidence.includes(s)) evidence.push(s);
    this.update(id, { evidence });
  }

  /**
   * Takes back an event that turned out not to have happened (a key the agent ignored): forgotten
   * here and deleted from the sink (a sink without retractEvent keeps its row).
   */
  retract(id: string): void {
    if (!this._events.delete(id)) return;
    if (!id.startsWith('local-')) this._sink.retractEvent?.(id);
  }

  get(id: string): BookedEvent | undefined {
    return this._events.get(id);
  }

  /** Events in the order they were written. */
  all(): BookedEvent[] {
    return [...this._events.values()];
  }

  forCall(callId: string): BookedEvent[] {
    return this.all().filter((e) => e.call_id === callId);
  }
}

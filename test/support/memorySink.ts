// A plain array-backed EventSink for unit tests of recorders: it stores what it is given, applies
// patches, and lets a test read the resulting events. (The SQLite store is tested on its own.)
import type { EventPatch, NewEvent } from '../../src/core/events.js';
import type { AgentRecordInput, EventSink, RunPatch } from '../../src/core/sink.js';

export type StoredEvent = NewEvent & { id: string };

export class MemorySink implements EventSink {
  readonly events: StoredEvent[] = [];
  readonly records: AgentRecordInput[] = [];
  run: RunPatch = {};
  private _next = 0;

  insertEvent(event: NewEvent): string {
    const id = `e${++this._next}`;
    this.events.push({ ...structuredClone(event), id });
    return id;
  }

  updateEvent(id: string, patch: EventPatch): void {
    const event = this.events.find((e) => e.id === id);
    if (!event) throw new Error(`updateEvent: no event ${id}`);
    Object.assign(event, structuredClone(patch));
  }

  retractEvent(id: string): void {
    const index = this.events.findIndex((e) => e.id === id);
    if (index < 0) throw new Error(`retractEvent: no event ${id}`);
    this.events.splice(index, 1);
  }

  insertAgentRecord(record: AgentRecordInput): void {
    this.records.push(record);
  }

  updateRun(patch: RunPatch): void {
    this.run = { ...this.run, ...patch };
  }

  /** Events of the given types, with only the fields a test wants to compare. */
  rows(...types: string[]): StoredEvent[] {
    return this.events.filter((e) => types.length === 0 || types.includes(e.type));
  }
}

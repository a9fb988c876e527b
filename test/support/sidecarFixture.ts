// Real sidecar databases for merge tests, written through the store `rec <agent>` writes with
// (src/store: openSidecar, startRun, insertEvent, insertAgentRecord), so the rows merge reads are
// exactly the rows rec writes. The store gives events their own ids: tests name events by a label
// and look the real id up (`eventId`), or turn real ids back into labels in output (`labelIds`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentName, NewEvent, RecEvent } from '../../src/core/events.js';
import { openSidecar, type SidecarDb } from '../../src/store/sidecarDb.js';

export interface RunRow {
  id: string;
  agent: AgentName;
  agent_version?: string | null;
  cwd?: string;
  started_at?: string;
  agent_session_id?: string | null;
  agent_session_file?: string | null;
}

/** An event as a test writes it: `id` is the test's label for it, `run_id` a run added before. */
export type EventRow = Partial<Omit<RecEvent, 'agent'>> & Pick<RecEvent, 'id' | 'run_id' | 'type' | 'ts'>;

const DEFAULT_STARTED_AT = '2026-11-22T09:00:00.000Z';

export class SidecarFixture {
  readonly dir: string;
  readonly path: string;
  private readonly _db: SidecarDb;
  private readonly _runs = new Map<string, RunRow>();
  private readonly _ids = new Map<string, string>();

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'rec-merge-db-'));
    this.path = join(this.dir, 'rec.db');
    const opened = openSidecar(this.path);
    if (!opened.ok) throw new Error(opened.error);
    this._db = opened.db;
  }

  addRun(r: RunRow): this {
    this._db.startRun({
      id: r.id,
      agent: r.agent,
      argv: [],
      cwd: r.cwd ?? '/work',
      started_at: r.started_at ?? DEFAULT_STARTED_AT,
      agent_version: r.agent_version ?? null,
      agent_session_id: r.agent_session_id ?? null,
      agent_session_file: r.agent_session_file ?? null,
    });
    this._runs.set(r.id, r);
    return this;
  }

  /** Writes an event of a run added before; the run gives its agent, version and session. */
  addEvent(e: EventRow): this {
    const run = this._runs.get(e.run_id);
    if (!run) throw new Error(`addEvent ${e.id}: no run ${e.run_id} (add it first)`);
    const { id: label, run_id: runId, ...fields } = e;
    // A decision names its prompt by the prompt's label, as tests name every event.
    if (fields.prompt_event_id) fields.prompt_event_id = this._ids.get(fields.prompt_event_id) ?? fields.prompt_event_id;
    const ctx = { run_id: runId, agent: run.agent, agent_version: run.agent_version ?? null, agent_session_id: run.agent_session_id ?? null };
    this._ids.set(label, this._db.insertEvent(ctx, { evidence: ['screen', 'keys'], ...fields } as NewEvent));
    return this;
  }

  /** Copies a file's lines into agent_records, as `rec <agent>` does while the agent runs. */
  addRecords(runId: string, agent: AgentName, sourceFile: string, lines: string[]): this {
    let offset = 0;
    lines.forEach((line, i) => {
      this._db.insertAgentRecord(runId, agent, { source_file: sourceFile, line_no: i + 1, byte_offset: offset, record: line });
      offset += Buffer.byteLength(line) + 1;
    });
    return this;
  }

  /** The id the store gave the event labelled `label`. */
  eventId(label: string): string {
    const id = this._ids.get(label);
    if (id === undefined) throw new Error(`no event labelled ${label}`);
    return id;
  }

  /** `text` with every store-given event id replaced by the test's label for it. */
  labelIds(text: string): string {
    let out = text;
    for (const [label, id] of this._ids) out = out.split(id).join(label);
    return out;
  }

  close(): void {
    this._db.close();
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

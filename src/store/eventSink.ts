// The EventSink recorders write to, over a SidecarDb. Fail-open: the first error disables the sink
// (later calls do nothing and return undefined) and is remembered as one line for the run's report.
import type { AgentName, AgentVersionSource, EventPatch, NewEvent } from '../core/events.js';
import type { AgentRecordInput, EventSink, RunPatch } from '../core/sink.js';
import type { SidecarDb } from './sidecarDb.js';
import { oneLine } from './sidecarError.js';

export interface SinkRunContext {
  readonly run_id: string;
  readonly agent: AgentName;
  readonly agent_version?: string | null;
  readonly agent_version_verified?: boolean | null;
  readonly agent_version_source?: AgentVersionSource | null;
  readonly agent_session_id?: string | null;
  /**
   * Whether rec was verified on a version of this agent: when the run learns the agent's version,
   * the run and its events are marked with the answer. Absent for a plain command.
   */
  readonly isVerifiedVersion?: (version: string) => boolean;
}

export interface SidecarSink extends EventSink {
  retractEvent(id: string): void;
  /** What stopped the sink, in one line; undefined while it works. */
  readonly failure: string | undefined;
  /** The agent's version as the run learned it, and whether rec was verified on it. */
  readonly agentVersion: { readonly version: string | null; readonly verified: boolean | null };
  /**
   * No more writes: the run is finishing and its database is about to close. Later calls do
   * nothing (they are not failures: a recorder's late work is dropped by design).
   */
  close(): void;
}

export function createEventSink(db: SidecarDb, run: SinkRunContext): SidecarSink {
  return new DbEventSink(db, run);
}

class DbEventSink implements SidecarSink {
  private _failure: string | undefined;
  private _closed = false;
  private readonly _run: {
    run_id: string;
    agent: AgentName;
    agent_version: string | null;
    agent_version_verified: boolean | null;
    agent_session_id: string | null;
  };
  private readonly _isVerifiedVersion: ((version: string) => boolean) | undefined;

  constructor(
    private readonly _db: SidecarDb,
    run: SinkRunContext,
  ) {
    this._run = {
      run_id: run.run_id,
      agent: run.agent,
      agent_version: run.agent_version ?? null,
      agent_version_verified: run.agent_version_verified ?? null,
      agent_session_id: run.agent_session_id ?? null,
    };
    this._isVerifiedVersion = run.isVerifiedVersion;
  }

  /** What the run has learned so far about the agent's version. */
  get agentVersion(): { readonly version: string | null; readonly verified: boolean | null } {
    return { version: this._run.agent_version, verified: this._run.agent_version_verified };
  }

  get failure(): string | undefined {
    return this._failure;
  }

  insertEvent(event: NewEvent): string | undefined {
    return this._guard('insert event', () => this._db.insertEvent(this._run, event));
  }

  updateEvent(id: string, patch: EventPatch): void {
    // An unknown id (false) is not a store failure: the event may predate a disabled sink.
    this._guard('update event', () => this._db.updateEvent(id, patch));
  }

  retractEvent(id: string): void {
    // An unknown id (false) is not a store failure: the event may predate a disabled sink.
    this._guard('retract event', () => this._db.deleteEvent(id));
  }

  insertAgentRecord(record: AgentRecordInput): void {
    this._guard('insert agent record', () => this._db.insertAgentRecord(this._run.run_id, this._run.agent, record));
  }

  updateRun(patch: RunPatch): void {
    let version = patch.agent_version;
    // A second witness of the same version changes nothing: the run keeps the first one's name.
    const { agent_version: _v, agent_version_source: _s, ...rest } = patch;
    if (version !== undefined && version === this._run.agent_version) version = undefined;
    const verified = typeof version === 'string' && this._isVerifiedVersion ? { agent_version_verified: this._isVerifiedVersion(version) } : {};
    const full: RunPatch = version === undefined ? rest : { ...patch, ...verified };
    if (Object.keys(full).length === 0) return;
    this._guard('update run', () => {
      this._db.updateRun(this._run.run_id, full);
      // Events inserted from now on carry what the run has learned.
      if (full.agent_version !== undefined) this._run.agent_version = full.agent_version;
      if (full.agent_version_verified !== undefined) this._run.agent_version_verified = full.agent_version_verified;
      if (patch.agent_session_id !== undefined) this._run.agent_session_id = patch.agent_session_id;
    });
  }

  close(): void {
    this._closed = true;
  }

  private _guard<T>(what: string, fn: () => T): T | undefined {
    if (this._failure !== undefined || this._closed) return undefined;
    try {
      return fn();
    } catch (err) {
      // Fail-open: the store must never throw into the pty loop. Remember the first failure, then
      // stop writing; the run reports it after the agent exits and records it in failed_parts.
      const message = err instanceof Error ? err.message : String(err);
      this._failure = oneLine(message.startsWith(what) ? message : `${what}: ${message}`);
      return undefined;
    }
  }
}

// Everything that records, set up after the agent has started so that the agent appears as fast
// as it would bare: the sidecar store, the screen model and the agent's recorder. Each part is
// guarded: one that fails is disabled and reported, and the passthrough never notices.
import { RECONCILE_AFTER_EXIT_MS, type Recorder } from '../agents/agentAdapter.js';
import type { AgentAdapter } from '../agents/agentModule.js';
import type { MissCount } from '../agents/common/missCheck.js';
import { versionVerifiedBy, type VerifiedVersion } from '../agents/verifiedVersions.js';
import type { AgentName } from '../core/events.js';
import type { HookMessage } from '../core/hookMessage.js';
import type { KeyEvent } from '../core/keys.js';
import type { Event } from '../core/lifecycle.js';
import type { FailureLog, FaultPart } from '../core/failures.js';
import { injectedFault, injectedFaults } from '../core/faultInjection.js';
import type { DebugLog } from '../core/debugLog.js';
import { ScreenModel } from '../screen/screenModel.js';
import { createEventSink, type SidecarSink } from '../store/eventSink.js';
import { openSidecar, type SidecarDb } from '../store/sidecarDb.js';
import type { ExitInfo } from '../session/exitStatus.js';
import type { KeyObserver } from '../session/inputRelay.js';

export const enum RecordingConstants {
  /** How long, after the agent exits, the screen model may take to parse its last output. */
  ScreenSettleMs = 2000,
  /**
   * How long a recorder that was told to stop (RECONCILE_AFTER_EXIT_MS) may take to return before it
   * is disposed anyway: a recorder that ignores its stop signal must not hold the user's prompt.
   */
  RecorderStopGraceMs = 250,
}

export interface RecordingOptions {
  readonly runId: string;
  readonly agent: AgentName;
  readonly adapter: AgentAdapter | undefined;
  /** The agent versions rec was verified on; a run of another version has its events marked. */
  readonly verifiedVersions: readonly VerifiedVersion[];
  /** The version of the agent's npm package above the binary started (agentBinary.ts), when found. */
  readonly agentVersion?: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly dbPath: string;
  readonly startedAt: Date;
  readonly size: { cols: number; rows: number };
  readonly hooks: Event<HookMessage>;
  readonly failures: FailureLog;
  readonly debug: DebugLog;
  readonly recVersion: string;
  readonly pid: number;
  /** The pid of the agent process in the pty. */
  readonly agentPid: number;
  /** How long the recorder may reconcile after the exit; RECONCILE_AFTER_EXIT_MS unless a test says. */
  readonly reconcileAfterExitMs?: number;
}

export class Recording implements KeyObserver {
  private _recorder: Recorder | undefined;
  private _screenBroken = false;
  private _unboundSession: { candidates: number; decisions: number } | undefined;
  private _misses: MissCount | undefined;
  /** REC_FAULT_INJECT, read once: writeOutput runs for every output chunk. */
  private readonly _failScreen: boolean;
  private readonly _failRecorder: boolean;

  private constructor(
    private readonly _opts: RecordingOptions,
    private readonly _db: SidecarDb,
    private readonly _sink: SidecarSink,
    readonly screen: ScreenModel,
  ) {
    const faults: ReadonlySet<FaultPart> = injectedFaults(_opts.env);
    this._failScreen = faults.has('screen');
    this._failRecorder = faults.has('recorder');
    // A recorder's render listener that throws is caught by the model: that is a recorder failure.
    screen.onListenerError((err) => this._disableRecorder(err));
    screen.onDidFail((err) => this._breakScreen(err));
  }

  /** Opens the store and builds the screen model; undefined when the store cannot open. */
  static open(opts: RecordingOptions, early: Buffer[]): Recording | undefined {
    const opened = openSidecar(opts.dbPath);
    if (!opened.ok) {
      opts.failures.fail('store', opened.error);
      return undefined;
    }
    const db = opened.db;
    const doctored = doctoredVersions(db, opts);
    const isVerified = (version: string) => versionVerifiedBy(opts.verifiedVersions, doctored, version) !== null;
    const version = opts.adapter && opts.agentVersion !== undefined
      ? { agent_version: opts.agentVersion, agent_version_verified: isVerified(opts.agentVersion), agent_version_source: 'package' as const }
      : {};
    try {
      db.startRun({
        id: opts.runId,
        agent: opts.agent,
        argv: [...opts.argv],
        cwd: opts.cwd,
        started_at: opts.startedAt.toISOString(),
        rec_version: opts.recVersion,
        pid: opts.pid,
        ...version,
      });
    } catch (err) {
      opts.failures.fail('store', err);
      closeQuietly(db, opts.failures);
      return undefined;
    }
    const sink = createEventSink(db, {
      run_id: opts.runId,
      agent: opts.agent,
      ...version,
      ...(opts.adapter ? { isVerifiedVersion: isVerified } : {}),
    });
    const screen = new ScreenModel({ cols: opts.size.cols, rows: opts.size.rows });
    const recording = new Recording(opts, db, sink, screen);
    for (const chunk of early) recording.writeOutput(chunk);
    return recording;
  }

  /** Creates the agent's recorder (its modules load now, after the agent has started). */
  async startRecorder(): Promise<void> {
    const opts = this._opts;
    if (!opts.adapter) return;
    try {
      this._recorder = await opts.adapter.createRecorder({
        runId: opts.runId,
        cwd: opts.cwd,
        env: opts.env,
        startedAt: opts.startedAt,
        agentPid: opts.agentPid,
        ...(opts.agentVersion !== undefined ? { agentVersion: opts.agentVersion } : {}),
        screen: this.screen,
        sink: this._sink,
        hooks: opts.hooks,
        debug: opts.debug,
      });
    } catch (err) {
      opts.failures.fail('recorder', err);
    }
  }

  /** The agent's version as the run learned it, and whether rec was verified on it. */
  get agentVersion(): { readonly version: string | null; readonly verified: boolean | null } {
    return this._sink.agentVersion;
  }

  /** Asked for every key before it is forwarded; the key, if decisive, is then judged on this screen. */
  get watching(): boolean {
    const recorder = this._recorder;
    if (!recorder) return false;
    // What the agent drew before the key is on the model before the key is judged.
    if (!this._screenBroken) this._catchUpScreen();
    try {
      return recorder.watching;
    } catch (err) {
      this._disableRecorder(err);
      return false;
    }
  }

  handleKey(key: KeyEvent): void {
    const recorder = this._recorder;
    if (!recorder) return;
    try {
      if (this._failRecorder) throw injectedFault('recorder');
      recorder.handleKey(key);
    } catch (err) {
      this._disableRecorder(err);
    }
  }

  private _catchUpScreen(): void {
    try {
      this.screen.catchUp();
    } catch (err) {
      this._breakScreen(err);
    }
  }

  writeOutput(chunk: Buffer): void {
    if (this._screenBroken) return;
    try {
      if (this._failScreen) throw injectedFault('screen');
      this.screen.write(chunk);
    } catch (err) {
      this._breakScreen(err);
    }
  }

  resize(cols: number, rows: number): void {
    if (this._screenBroken) return;
    try {
      this.screen.resize(cols, rows);
    } catch (err) {
      this._breakScreen(err);
    }
  }

  /** After the agent exited: let the model and the recorder finish, then close the run. */
  async finish(exit: ExitInfo): Promise<void> {
    await withTimeout(this.screen.whenIdle(), RecordingConstants.ScreenSettleMs);
    const recorder = this._recorder;
    if (recorder) {
      const budget = this._opts.reconcileAfterExitMs ?? RECONCILE_AFTER_EXIT_MS;
      const stop = new AbortController();
      const stopTimer = setTimeout(() => stop.abort(), budget);
      try {
        await withTimeout(recorder.handleExit({ exitCode: exit.exitCode, signal: exit.signal }, stop.signal), budget + RecordingConstants.RecorderStopGraceMs);
        this._misses = recorder.misses;
        recorder.dispose();
      } catch (err) {
        this._disableRecorder(err); // disposes it
      } finally {
        clearTimeout(stopTimer);
        stop.abort();
      }
      this._recorder = undefined;
    }
    this.screen.dispose();
    // Whatever a recorder still had queued (a timer's work already started, a promise settling
    // late) now finds a closed sink and writes nothing, instead of failing on a closed database.
    this._sink.close();
    if (this._sink.failure) this._opts.failures.fail('store', this._sink.failure);
    try {
      this._db.finishRun(this._opts.runId, {
        ended_at: new Date().toISOString(),
        exit_code: exit.signal ? null : exit.exitCode,
        signal: exit.signal ?? null,
        failed_parts: this._opts.failures.list(),
      });
    } catch (err) {
      this._opts.failures.fail('store', err);
    }
    this._unboundSession = this._readUnboundSession();
    closeQuietly(this._db, this._opts.failures);
  }

  /**
   * Set after finish() when the run ended unsure which session file was its own (another session in
   * the same folder fitted the screen as well): how many files fitted, and how many of the run's
   * decisions therefore keep no call id.
   */
  get unboundSession(): { readonly candidates: number; readonly decisions: number } | undefined {
    return this._unboundSession;
  }

  /**
   * Set after finish(): the decisions the agent's own file showed a person took, and how many of
   * them the recorder saw nothing of (`miss` events); undefined when no recorder read a file.
   */
  get misses(): MissCount | undefined {
    return this._misses;
  }

  private _readUnboundSession(): { candidates: number; decisions: number } | undefined {
    try {
      let candidates = 0;
      let decisions = 0;
      for (const e of this._db.listEvents({ runId: this._opts.runId })) {
        const native = e.native as { session?: unknown; session_candidates?: unknown } | null;
        if (native?.session !== 'ambiguous') continue;
        if (typeof native.session_candidates === 'number') candidates = Math.max(candidates, native.session_candidates);
        if (e.type !== 'prompt') decisions++;
      }
      return candidates > 0 || decisions > 0 ? { candidates, decisions } : undefined;
    } catch (err) {
      this._opts.failures.fail('store', err);
      return undefined;
    }
  }

  private _disableRecorder(err: unknown): void {
    this._opts.failures.fail('recorder', err);
    const recorder = this._recorder;
    this._recorder = undefined;
    try {
      recorder?.dispose();
    } catch {
      // It is being disabled for failing already; that failure is the one worth reporting.
    }
  }

  /** Without a screen model the recorder would read a frozen screen: stop it too. */
  private _breakScreen(err: unknown): void {
    this._screenBroken = true;
    this._opts.failures.fail('screen', err);
    if (this._recorder) this._disableRecorder(new Error('stopped because the screen model failed'));
  }
}

/** A close that fails must not turn the agent's exit code into rec's error: it is a store failure. */
function closeQuietly(db: SidecarDb, failures: FailureLog): void {
  try {
    db.close();
  } catch (err) {
    failures.fail('store', err);
  }
}

function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * The versions `rec doctor` verified on this machine (in this database): they count like the ones rec
 * ships with. A failed read costs only that: the run records on, with the shipped list.
 */
function doctoredVersions(db: SidecarDb, opts: RecordingOptions): string[] {
  if (!opts.adapter) return [];
  try {
    return db.doctorVerifiedVersions(opts.agent);
  } catch {
    // A damaged doctor_runs table: the shipped versions still decide, and the store reports its own failures.
    return [];
  }
}

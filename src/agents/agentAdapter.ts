// What an agent's adapter (AgentAdapter, declared beside its registry row in agentModule.ts) gets
// and gives: the launch and the live recorder. What differs per agent is data (prompt texts,
// keys, file locations) and small adapters; the pipeline (session → screen → recorders → store)
// is shared.
import type { HookMessage } from '../core/hookMessage.js';
import type { KeyEvent } from '../core/keys.js';
import type { Disposable, Event } from '../core/lifecycle.js';
import type { ScreenView } from '../core/screen.js';
import type { EventSink } from '../core/sink.js';
import type { MissCount } from './common/missCheck.js';

export interface LaunchContext {
  readonly runId: string;
  /** The user's arguments for the agent, untouched. */
  readonly args: readonly string[];
  /** The environment the agent will get (already holds REC_HOOK_URL / REC_HOOK_TOKEN). */
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Absolute path of the command hooks should run: `<node> <rec>/bin/rec.js hook <agent> <event>`. */
  readonly hookCommand: (event: string) => string;
  /** A private temporary folder for this run, removed after it. */
  readonly tempDir: string;
}

export interface LaunchPlan {
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /**
   * What rec could not wire for this run and how it records instead (one line each): said once on
   * stderr after the agent exits, never while it draws.
   */
  readonly notes?: readonly string[];
  /** Undo anything prepared for this run only (temporary config, hook files). */
  cleanup?(): void;
}

export interface RecorderContext {
  readonly runId: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly startedAt: Date;
  /** The pid of the agent process rec started; absent where no agent runs (a recording replayed). */
  readonly agentPid?: number;
  /** The version of the agent's package above the binary rec started, when it has one. */
  readonly agentVersion?: string;
  readonly screen: ScreenView;
  readonly sink: EventSink;
  readonly hooks: Event<HookMessage>;
  /** Writes to the debug log (REC_DEBUG=1), never to the terminal. */
  readonly debug: (message: string) => void;
}

export interface AgentExit {
  readonly exitCode: number;
  readonly signal?: number;
}

/**
 * How long a recorder may reconcile after the agent exits (the agent's last session records). The
 * user waits for their shell prompt meanwhile, so it is short; `rec merge` reconciles the rest later.
 */
export const RECONCILE_AFTER_EXIT_MS = 1_500;

export interface Recorder extends Disposable {
  /**
   * True while a prompt or a running tool is on screen. Keys are then decisive: the pipeline resolves
   * a lone Esc before forwarding, and calls handleKey before the key's bytes reach the agent.
   */
  readonly watching: boolean;
  /** Called synchronously for each decoded key, before its bytes are written to the agent. */
  handleKey(key: KeyEvent): void;
  /**
   * Called once after the agent exited and its last output reached the screen model. Reconciles
   * until done or until `stop` aborts (RECONCILE_AFTER_EXIT_MS), and then returns at once: after
   * that the caller disposes the recorder and closes the store, so nothing may be left running.
   */
  handleExit(exit: AgentExit, stop: AbortSignal): Promise<void>;
  /**
   * The decisions the agent's own file showed a person took, and how many of them the recorder saw
   * nothing of (each a `miss` event); read after handleExit. Absent for a recorder that reads no file.
   */
  readonly misses?: MissCount;
}

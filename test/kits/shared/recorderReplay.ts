// What every recorded-session replay does around replayCast(): the recorder's context (no hooks, no
// debug log), and its end, as rec ends a run: the agent's last screen stays a moment (long enough
// for the recorder's settle checks and polls), then handleExit is told to stop
// RECONCILE_AFTER_EXIT_MS after the exit, all on the replay's VirtualClock.
import { join } from 'node:path';
import { RECONCILE_AFTER_EXIT_MS, type Recorder, type RecorderContext } from '../../../src/agents/agentAdapter.js';
import type { HookMessage } from '../../../src/core/hookMessage.js';
import { Emitter } from '../../../src/core/lifecycle.js';
import type { ScreenModel } from '../../../src/screen/screenModel.js';
import type { EventSink } from '../../../src/core/sink.js';
import { openSidecar, type SidecarDb } from '../../../src/store/sidecarDb.js';
import type { VirtualClock } from '../../helpers/virtualClock.js';

/** A replay's sidecar: a real file in the replay's temporary folder, as `rec <agent>` writes one. */
export function openReplaySidecar(dir: string): SidecarDb {
  const opened = openSidecar(join(dir, 'rec.db'));
  if (!opened.ok) throw new Error(opened.error);
  return opened.db;
}

export function replayContext(o: { runId: string; cwd: string; env: NodeJS.ProcessEnv; startMs: number; screen: ScreenModel; sink: EventSink }): RecorderContext {
  return {
    runId: o.runId,
    cwd: o.cwd,
    env: o.env,
    startedAt: new Date(o.startMs),
    screen: o.screen,
    sink: o.sink,
    hooks: new Emitter<HookMessage>().event,
    debug: () => {},
  };
}

export interface ReplayExitOptions {
  readonly recorder: Recorder;
  readonly clock: VirtualClock;
  readonly screen: ScreenModel;
  /** How long the last screen stays after the cast ends: the recorder's settle time plus a poll. */
  readonly lingerMs: number;
  /** What the agent did as it exited, before rec reconciles (e.g. Gemini deleting its chat file). */
  readonly atExit?: () => void;
}

export async function exitAfterReplay(o: ReplayExitOptions): Promise<void> {
  const idle = () => o.screen.whenIdle();
  await o.clock.advanceTo(o.clock.now() + o.lingerMs, idle);
  o.atExit?.();
  const stop = new AbortController();
  o.clock.setTimeout(() => stop.abort(), RECONCILE_AFTER_EXIT_MS);
  await o.clock.runUntil(o.recorder.handleExit({ exitCode: 0 }, stop.signal), RECONCILE_AFTER_EXIT_MS * 2, idle);
}

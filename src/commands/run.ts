// `rec <agent> [args…]` / `rec -- <command> [args…]`: the pipeline's table of contents.
// session (pty, raw tty, bytes both ways) → screen model → the agent's recorder → the store.
// The agent starts first; the recording is set up right after, off the passthrough's path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReadStream } from 'node:tty';
import type { LaunchPlan } from '../agents/agentAdapter.js';
import type { AgentAdapter, AgentModule } from '../agents/agentModule.js';
import { createDebugLog, type DebugLog } from '../store/debugLog.js';
import type { HookMessage } from '../core/hookMessage.js';
import { FailureLog } from '../core/failures.js';
import { injectedFault, injectedFaults } from '../core/faultInjection.js';
import { Emitter } from '../core/lifecycle.js';
import { toExitStatus, type ExitInfo } from '../session/exitStatus.js';
import { findExecutable } from '../session/findBinary.js';
import { findAgentBinary, type FoundAgentBinary } from './agentBinary.js';
import { InputRelay } from '../session/inputRelay.js';
import { PtySession } from '../session/ptySession.js';
import { enterRawMode, type RawTty } from '../session/rawTty.js';
import { guardTerminalModes, type TerminalModeGuard } from '../session/terminalRestore.js';
import { terminalSize } from '../session/terminalSize.js';
import { newId } from '../store/ids.js';
import type { CommandIO } from './commandIO.js';
import type { RunArgs } from './runArgs.js';
import { EarlyOutput } from './earlyOutput.js';
import { escapeControls } from './terminalText.js';
import type { Recording, RecordingOptions } from './recording.js';
import type { HookServer } from '../hooks/hookServer.js';
import { reportAfterExit } from './runReports.js';

export const enum RunConstants {
  /** A signal sent to rec is forwarded to the agent; one that ignores it is killed after this long. */
  ForceKillAfterMs = 5000,
}

/** Signals that end rec: forwarded to the agent, which then ends rec by exiting. */
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];

export async function runCommand(args: RunArgs, io: CommandIO): Promise<number> {
  const module = args.agent ? (await import('../agents/registry.js')).agentModule(args.agent) : undefined;
  const adapter = await module?.loadAdapter();
  // One lookup: the binary started here is the one whose version the run records.
  const found = module ? findAgentBinary(module, args.agentBin, io.env, io.cwd) : findCommand(args.command!, io);
  if (!found.ok) {
    io.stderr.write(found.message + '\n');
    return 127;
  }
  const file = found.binary.path;
  if (!process.stdin.isTTY) return (await import('./runDirect.js')).runDirect(file, args.args, io);

  const run = newRunContext(io);
  const launch = await planLaunch(run, adapter, args, io);

  const size = terminalSize();
  const stdin = process.stdin as ReadStream;
  const raw = enterRawMode(stdin);
  const session = startSession(file, launch.plan, size, io);
  if (!(session instanceof PtySession)) {
    await raw.restore();
    io.stderr.write(`rec: cannot start ${escapeControls(file)}: ${escapeControls(errorMessage(session.error))}\n`);
    await cleanUpLaunch(launch, run.failures);
    return 126;
  }

  run.debug(`agent started ${Math.round(performance.now())} ms after rec's own start`);
  if (injectedFaults(io.env).has('crash')) {
    // A bug in rec itself, for the test that the terminal mode survives it (rawTty's exit hook).
    setImmediate(() => {
      throw injectedFault('crash');
    });
  }

  let recording: Recording | undefined;
  const output = relayOutput(session, raw, process.stdout);
  const input = relayInput(session, stdin);
  const signals = forwardSignals(session, run.debug, (cols, rows) => recording?.resize(cols, rows));
  // The recording starts now that the agent runs. It is handed over as soon as it opens, before its
  // recorder starts, so that resizes and the exit reach it even when the recorder fails.
  const spec: RecordingSpec = { run, module, adapter, args, io, file, packageVersion: found.binary.packageVersion, env: launch.plan.env, agentPid: session.pid };
  await openRecording(spec, output, input, (opened) => (recording = opened));

  const exit: ExitInfo = await session.exited;
  run.debug(`agent exited (${JSON.stringify(exit)}) at ${Math.round(performance.now())} ms`);
  signals.cancelForceKill();
  input.stop();
  await raw.ready; // any held output has been written: the agent's last bytes are out
  await output.modes.restore();
  await raw.restore();
  signals.remove();

  if (recording) await recording.finish(exit);
  await cleanUpLaunch(launch, run.failures);
  reportAfterExit(io, run.failures, launch.plan, module, adapter, recording);
  run.debug(`run closed at ${Math.round(performance.now())} ms`);
  if (recording && io.env.REC_EXPORT_OTLP) (await import('./exportAfterRun.js')).exportAfterRun(io.env, run.runId, await resolveDb(args, io), run.debug);
  return toExitStatus(exit);
}

/** What one run shares between its parts: its id, its debug log and the log of parts that failed. */
interface RunContext {
  readonly runId: string;
  readonly debug: DebugLog;
  readonly failures: FailureLog;
  readonly startedAt: Date;
  readonly hookMessages: Emitter<HookMessage>;
}

function newRunContext(io: CommandIO): RunContext {
  const runId = newId();
  const debug = createDebugLog(io.env, `run ${runId.slice(0, 8)}`);
  return { runId, debug, failures: new FailureLog(debug), startedAt: new Date(), hookMessages: new Emitter<HookMessage>() };
}

/** What the agent is started with, and what has to be undone once it is gone. */
interface Launch {
  readonly plan: LaunchPlan;
  readonly hookServer: HookServer | undefined;
  readonly tempDir: string;
}

async function planLaunch(run: RunContext, adapter: AgentAdapter | undefined, args: RunArgs, io: CommandIO): Promise<Launch> {
  // The hooks channel must listen before the agent starts: its URL goes into the agent's environment.
  const hookServer = adapter ? await startHooks(run, io) : undefined;
  const tempDir = mkdtempSync(join(tmpdir(), 'rec-run-'));
  const baseEnv: NodeJS.ProcessEnv = { ...io.env, REC_RUN_ID: run.runId };
  if (hookServer) {
    baseEnv.REC_HOOK_URL = hookServer.url;
    baseEnv.REC_HOOK_TOKEN = hookServer.token;
  }
  let plan: LaunchPlan = { args: args.args, env: baseEnv };
  if (adapter) {
    try {
      plan = adapter.prepareLaunch({
        runId: run.runId,
        args: args.args,
        env: baseEnv,
        cwd: io.cwd,
        tempDir,
        hookCommand: (event) => hookCommandLine(adapter.module.name, event),
      });
    } catch (err) {
      run.failures.fail('launch', err);
    }
  }
  return { plan, hookServer, tempDir };
}

async function startHooks(run: RunContext, io: CommandIO): Promise<HookServer | undefined> {
  try {
    if (injectedFaults(io.env).has('hooks')) throw injectedFault('hooks');
    const { startHookServer } = await import('../hooks/hookServer.js');
    return await startHookServer({
      onMessage: (m) => run.hookMessages.fire(m),
      // The consumer is the agent's recorder: a message it cannot take is a recorder failure.
      onConsumerError: (err) => run.failures.fail('recorder', err),
      debug: run.debug,
    });
  } catch (err) {
    run.failures.fail('hooks', err);
    return undefined;
  }
}

/** The agent in its pty, sized like the user's terminal; a launch error comes back as a value. */
function startSession(
  file: string,
  plan: LaunchPlan,
  size: { readonly cols: number; readonly rows: number },
  io: CommandIO,
): PtySession | { readonly error: unknown } {
  try {
    return new PtySession({
      file,
      args: plan.args,
      cwd: io.cwd,
      env: plan.env,
      cols: size.cols,
      rows: size.rows,
      term: io.env.TERM || 'xterm-256color',
    });
  } catch (error) {
    return { error };
  }
}

interface OutputRelay {
  /** What the agent turns on (alternate screen, mouse, keyboard flags…) is undone if it dies first. */
  readonly modes: TerminalModeGuard;
  /** The recording gets the bytes seen so far, then every chunk after them. */
  attach(open: (early: Buffer[]) => Recording | undefined): Recording | undefined;
}

/** Output: to the user's terminal first, then (off the hot path) to the screen model. */
function relayOutput(session: PtySession, raw: RawTty, stdout: typeof process.stdout): OutputRelay {
  const early = new EarlyOutput();
  const modes = guardTerminalModes(stdout);
  let recording: Recording | undefined;
  // Until the terminal is fully raw (OPOST off), the agent's first bytes wait, in order.
  let held: Buffer[] | undefined = [];
  void raw.ready.then(() => {
    for (const chunk of held!) stdout.write(chunk);
    held = undefined;
  });
  session.onData((chunk) => {
    if (held) held.push(chunk);
    else stdout.write(chunk);
    modes.scan(chunk);
    if (recording) recording.writeOutput(chunk);
    else early.push(chunk);
  });
  return {
    modes,
    attach: (open) => (recording = open(early.take())),
  };
}

interface InputRelayHandle {
  readonly relay: InputRelay;
  stop(): void;
}

/** Input: keys are shown to the recorder before their bytes reach the agent. */
function relayInput(session: PtySession, stdin: ReadStream): InputRelayHandle {
  const relay = new InputRelay((bytes) => session.write(bytes));
  const onInput = (chunk: Buffer) => relay.handleInput(chunk);
  stdin.on('data', onInput);
  stdin.resume();
  return {
    relay,
    stop: () => {
      stdin.off('data', onInput);
      stdin.pause();
    },
  };
}

interface SignalForwarding {
  cancelForceKill(): void;
  remove(): void;
}

/** Resizes follow the user's terminal; signals that end rec go to the agent, which then ends rec by exiting. */
function forwardSignals(session: PtySession, debug: DebugLog, onResized: (cols: number, rows: number) => void): SignalForwarding {
  const onResize = () => {
    const next = terminalSize();
    session.resize(next.cols, next.rows);
    onResized(next.cols, next.rows);
  };
  process.on('SIGWINCH', onResize);

  let forceKill: NodeJS.Timeout | undefined;
  const signalHandlers = FORWARDED_SIGNALS.map((sig) => {
    const handler = () => {
      debug(`received ${sig}; forwarding to the agent`);
      session.kill(sig);
      forceKill ??= setTimeout(() => session.kill('SIGKILL'), RunConstants.ForceKillAfterMs);
    };
    process.on(sig, handler);
    return [sig, handler] as const;
  });
  return {
    cancelForceKill: () => {
      if (forceKill) clearTimeout(forceKill);
    },
    remove: () => {
      process.off('SIGWINCH', onResize);
      for (const [sig, handler] of signalHandlers) process.off(sig, handler);
    },
  };
}

interface RecordingSpec {
  readonly run: RunContext;
  readonly module: AgentModule | undefined;
  readonly adapter: AgentAdapter | undefined;
  readonly args: RunArgs;
  readonly io: CommandIO;
  readonly file: string;
  readonly packageVersion: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  /** The agent's pid: a scanning agent's session finder tells its own processes from a twin's. */
  readonly agentPid: number;
}

/** Fail-open: a recording that cannot open or start is a 'store' failure, and the agent runs on. */
async function openRecording(
  spec: RecordingSpec,
  output: OutputRelay,
  input: InputRelayHandle,
  opened: (recording: Recording | undefined) => void,
): Promise<void> {
  const { run, module, adapter, args, io, file, packageVersion } = spec;
  try {
    const { Recording } = await import('./recording.js');
    const { readVersion } = await import('./version.js');
    const options: RecordingOptions = {
      runId: run.runId,
      agent: adapter?.module.name ?? 'other',
      adapter,
      verifiedVersions: module?.verifiedVersions ?? [],
      ...(packageVersion !== undefined ? { agentVersion: packageVersion } : {}),
      argv: [file, ...args.args],
      cwd: io.cwd,
      env: spec.env,
      dbPath: await resolveDb(args, io),
      startedAt: run.startedAt,
      size: terminalSize(),
      hooks: run.hookMessages.event,
      failures: run.failures,
      debug: run.debug,
      recVersion: readVersion(),
      pid: process.pid,
      agentPid: spec.agentPid,
    };
    const recording = output.attach((early) => Recording.open(options, early));
    opened(recording);
    await recording?.startRecorder();
    input.relay.setObserver(recording);
  } catch (err) {
    run.failures.fail('store', err);
  }
}

async function cleanUpLaunch(launch: Launch, failures: FailureLog): Promise<void> {
  try {
    launch.plan.cleanup?.();
  } catch (err) {
    failures.fail('launch', err);
  }
  await launch.hookServer?.close().catch((err: unknown) => failures.fail('hooks', err));
  rmSync(launch.tempDir, { recursive: true, force: true });
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `rec -- COMMAND`: found the way a shell finds it; no package, no version. */
function findCommand(command: string, io: CommandIO): FoundAgentBinary {
  const path = findExecutable(command, io.env, io.cwd);
  if (path === undefined) return { ok: false, message: `rec: ${escapeControls(command)}: command not found` };
  return { ok: true, binary: { path, packageVersion: undefined } };
}

async function resolveDb(args: RunArgs, io: CommandIO): Promise<string> {
  const { resolveDbPath } = await import('../store/dbPath.js');
  return resolveDbPath({ flag: args.db, env: io.env, cwd: io.cwd });
}

/** The command an agent's hook config runs: this very rec, by absolute path, so PATH does not matter. */
function hookCommandLine(agent: string, event: string): string {
  const recJs = new URL('../../bin/rec.js', import.meta.url).pathname;
  return `${shellQuote(process.execPath)} ${shellQuote(recJs)} hook ${agent} ${shellQuote(event)}`;
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

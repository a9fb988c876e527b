// `rec <agent> [args…]` / `rec -- <command> [args…]`: the pipeline's table of contents.
// session (pty, raw tty, bytes both ways) → screen model → the agent's recorder → the store.
// The agent starts first; the recording is set up right after, off the passthrough's path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReadStream } from 'node:tty';
import type { LaunchPlan } from '../agents/agentAdapter.js';
import { createDebugLog } from '../store/debugLog.js';
import type { HookMessage } from '../core/hookMessage.js';
import { FailureLog } from '../core/failures.js';
import { injectedFault, injectedFaults } from '../core/faultInjection.js';
import { Emitter } from '../core/lifecycle.js';
import { toExitStatus, type ExitInfo } from '../session/exitStatus.js';
import { findExecutable } from '../session/findBinary.js';
import { findAgentBinary, type FoundAgentBinary } from './agentBinary.js';
import { InputRelay } from '../session/inputRelay.js';
import { PtySession } from '../session/ptySession.js';
import { enterRawMode } from '../session/rawTty.js';
import { guardTerminalModes } from '../session/terminalRestore.js';
import { terminalSize } from '../session/terminalSize.js';
import { newId } from '../store/ids.js';
import type { CommandIO } from './commandIO.js';
import type { RunArgs } from './runArgs.js';
import { EarlyOutput } from './earlyOutput.js';
import { escapeControls } from './terminalText.js';
import type { Recording } from './recording.js';

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
  const packageVersion = found.binary.packageVersion;
  if (!process.stdin.isTTY) return (await import('./runDirect.js')).runDirect(file, args.args, io);

  const runId = newId();
  const debug = createDebugLog(io.env, `run ${runId.slice(0, 8)}`);
  const failures = new FailureLog(debug);
  const startedAt = new Date();
  const hookMessages = new Emitter<HookMessage>();

  // The hooks channel must listen before the agent starts: its URL goes into the agent's environment.
  const hookServer = await (async () => {
    if (!adapter) return undefined;
    try {
      if (injectedFaults(io.env).has('hooks')) throw injectedFault('hooks');
      const { startHookServer } = await import('../hooks/hookServer.js');
      return await startHookServer({
        onMessage: (m) => hookMessages.fire(m),
        // The consumer is the agent's recorder: a message it cannot take is a recorder failure.
        onConsumerError: (err) => failures.fail('recorder', err),
        debug,
      });
    } catch (err) {
      failures.fail('hooks', err);
      return undefined;
    }
  })();
  const tempDir = mkdtempSync(join(tmpdir(), 'rec-run-'));
  const baseEnv: NodeJS.ProcessEnv = { ...io.env, REC_RUN_ID: runId };
  if (hookServer) {
    baseEnv.REC_HOOK_URL = hookServer.url;
    baseEnv.REC_HOOK_TOKEN = hookServer.token;
  }
  let plan: LaunchPlan = { args: args.args, env: baseEnv };
  if (adapter) {
    try {
      plan = adapter.prepareLaunch({
        runId,
        args: args.args,
        env: baseEnv,
        cwd: io.cwd,
        tempDir,
        hookCommand: (event) => hookCommandLine(adapter.module.name, event),
      });
    } catch (err) {
      failures.fail('launch', err);
    }
  }

  const size = terminalSize();
  const stdin = process.stdin as ReadStream;
  const raw = enterRawMode(stdin);
  let session: PtySession;
  try {
    session = new PtySession({
      file,
      args: plan.args,
      cwd: io.cwd,
      env: plan.env,
      cols: size.cols,
      rows: size.rows,
      term: io.env.TERM || 'xterm-256color',
    });
  } catch (err) {
    await raw.restore();
    io.stderr.write(`rec: cannot start ${escapeControls(file)}: ${escapeControls(err instanceof Error ? err.message : String(err))}\n`);
    await cleanUp();
    return 126;
  }

  debug(`agent started ${Math.round(performance.now())} ms after rec's own start`);
  if (injectedFaults(io.env).has('crash')) {
    // A bug in rec itself, for the test that the terminal mode survives it (rawTty's exit hook).
    setImmediate(() => {
      throw injectedFault('crash');
    });
  }

  // Output: to the user's terminal first, then (off the hot path) to the screen model.
  const stdout = process.stdout;
  const early = new EarlyOutput();
  // What the agent turns on (alternate screen, mouse, keyboard flags…) is undone if it dies first.
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

  // Input: keys are shown to the recorder before their bytes reach the agent.
  const relay = new InputRelay((bytes) => session.write(bytes));
  const onInput = (chunk: Buffer) => relay.handleInput(chunk);
  stdin.on('data', onInput);
  stdin.resume();

  const onResize = () => {
    const next = terminalSize();
    session.resize(next.cols, next.rows);
    recording?.resize(next.cols, next.rows);
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

  // The recording starts now that the agent runs.
  try {
    const { Recording } = await import('./recording.js');
    const { readVersion } = await import('./version.js');
    recording = Recording.open(
      {
        runId,
        agent: adapter?.module.name ?? 'other',
        adapter,
        verifiedVersions: module?.verifiedVersions ?? [],
        ...(packageVersion !== undefined ? { agentVersion: packageVersion } : {}),
        argv: [file, ...args.args],
        cwd: io.cwd,
        env: plan.env,
        dbPath: await resolveDb(args, io),
        startedAt,
        size: terminalSize(),
        hooks: hookMessages.event,
        failures,
        debug,
        recVersion: readVersion(),
        pid: process.pid,
      },
      early.take(),
    );
    await recording?.startRecorder();
    relay.setObserver(recording);
  } catch (err) {
    failures.fail('store', err);
  }

  const exit: ExitInfo = await session.exited;
  debug(`agent exited (${JSON.stringify(exit)}) at ${Math.round(performance.now())} ms`);
  if (forceKill) clearTimeout(forceKill);
  stdin.off('data', onInput);
  stdin.pause();
  await raw.ready; // any held output has been written: the agent's last bytes are out
  await modes.restore();
  await raw.restore();
  process.off('SIGWINCH', onResize);
  for (const [sig, handler] of signalHandlers) process.off(sig, handler);

  if (recording) await recording.finish(exit);
  await cleanUp();
  reportFailures(io, failures);
  for (const note of plan.notes ?? []) io.stderr.write(`rec: ${adapter?.module.name ?? 'agent'}: ${escapeControls(note)}\n`);
  if (recording && module) reportUnverifiedVersion(io, module.name, recording.agentVersion, module.verifiedVersions);
  if (recording?.unboundSession && module) reportUnboundSession(io, module.name, recording.unboundSession);
  debug(`run closed at ${Math.round(performance.now())} ms`);
  return toExitStatus(exit);

  async function cleanUp(): Promise<void> {
    try {
      plan.cleanup?.();
    } catch (err) {
      failures.fail('launch', err);
    }
    await hookServer?.close().catch((err: unknown) => failures.fail('hooks', err));
    rmSync(tempDir, { recursive: true, force: true });
  }
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

/** Once, after the agent exited: the agent ran untouched, but rec was not verified on its version. */
function reportUnverifiedVersion(
  io: CommandIO,
  agent: string,
  seen: { readonly version: string | null; readonly verified: boolean | null },
  verifiedOn: readonly string[],
): void {
  if (seen.version === null || seen.verified !== false) return;
  io.stderr.write(
    `rec: ${agent} ${escapeControls(seen.version)} is not a version rec was verified on (${verifiedOn.join(', ')}); its events are marked agent_version_verified=false\n`,
  );
}

/** Once, after the agent exited: rec could not tell this run's session file from another's. */
function reportUnboundSession(io: CommandIO, agent: string, unbound: { readonly candidates: number; readonly decisions: number }): void {
  const files = unbound.candidates > 1 ? `${unbound.candidates} session files` : 'session files';
  const what = unbound.decisions === 1 ? '1 decision keeps' : `${unbound.decisions} decisions keep`;
  io.stderr.write(
    `rec: ${agent}: ${files} in this folder fitted this run equally (another ${agent} with the same words); ${what} no call id rather than maybe another session's (native.session = "ambiguous")\n`,
  );
}

function reportFailures(io: CommandIO, failures: FailureLog): void {
  const list = failures.list();
  if (list.length === 0) return;
  const parts = list.map((f) => `${f.part}: ${f.error}`).join('; ');
  io.stderr.write(`rec: recording was incomplete (the agent itself ran unaffected) — ${parts}\n`);
}

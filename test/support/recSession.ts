// What every agent's e2e session kit shares: the agent, under `rec --db <file> <agent>` or bare (the
// smoke test of the environment itself), in a real pty under the pexpect-style harness; a Driver over
// it for the scenario scripts; the run's sidecar rows; and its end, stopping everything it started by
// pid. Each agent's kit (test/support/<agent>/recSession.ts) adds its mock server, its environment, how
// its input shows typed text, how a user quits it, and its session files.
import { spawn, type Spawned, type SpawnOptions } from '../../src/lab/spawn.js';
import { readEventRows, type EventRow } from './sidecarRows.js';
import type { Driver } from '../../src/lab/driver.js';
import { REC_BIN } from './recBin.js';

export interface AgentSessionOptions {
  readonly agent: 'claude' | 'codex' | 'gemini' | 'copilot';
  /** The agent's executable: run directly when bare, else rec is told of it through the environment. */
  readonly bin: string;
  /** The agent alone, not under rec. */
  readonly bare?: boolean;
  /** The user's own flags for the agent, passed as given. */
  readonly args?: readonly string[];
  readonly dbPath: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cols?: number;
  readonly rows?: number;
  /** How long an expect waits unless told otherwise. */
  readonly timeoutMs: number;
  readonly onOutput?: SpawnOptions['onOutput'];
  /** What the screen shows once `text` is typed: Enter is pressed only then, so the text is typed, not taken for a paste. */
  readonly typed: (text: string) => string | RegExp;
  /** A wait before that Enter (Gemini's paste guard). */
  readonly beforeEnter?: () => Promise<void>;
  /** Runs the command another way (e.g. in a private mount namespace, src/agents/codex/bench/managedNetwork.ts). */
  readonly wrap?: (command: string, args: readonly string[]) => { readonly command: string; readonly args: readonly string[] };
  /** Stops the given processes and everything they started. */
  readonly stopProcesses: (pids: number[]) => Promise<void>;
}

export interface AgentSession {
  readonly proc: Spawned;
  readonly driver: Driver;
  rows(): EventRow[];
  /** Stops the agent (and rec) and everything they started, by pid, and releases the pty; once. */
  stop(): Promise<void>;
}

export function startAgentSession(o: AgentSessionOptions): AgentSession {
  const userArgs = o.args ?? [];
  const [plainCommand, plainArgs] = o.bare ? [o.bin, [...userArgs]] : [process.execPath, [REC_BIN, '--db', o.dbPath, o.agent, ...userArgs]];
  const { command, args } = o.wrap ? o.wrap(plainCommand, plainArgs) : { command: plainCommand, args: plainArgs };
  const proc = spawn(command, [...args], {
    cols: o.cols ?? 120,
    rows: o.rows ?? 40,
    cwd: o.cwd,
    env: o.env,
    timeoutMs: o.timeoutMs,
    ...(o.onOutput ? { onOutput: o.onOutput } : {}),
  });
  const driver: Driver = {
    async waitScreen(re, _label, timeoutMs = o.timeoutMs) {
      await proc.expectScreen(re, timeoutMs);
    },
    send: (data) => proc.send(data),
    async line(text) {
      proc.send(text);
      await proc.expectScreen(o.typed(text));
      await o.beforeEnter?.();
      proc.sendKey('enter');
    },
    resize: (cols, rows) => proc.resize(cols, rows),
    snap: () => undefined,
    screen: () => proc.screen(),
  };
  let stopped = false;
  return {
    proc,
    driver,
    rows: () => readEventRows(o.dbPath),
    async stop() {
      if (stopped) return;
      stopped = true;
      await o.stopProcesses([proc.pid]);
      proc.dispose();
    },
  };
}

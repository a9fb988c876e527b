// One agent under `rec --db <file> <agent>` in a real pty with a rendered screen, and a Driver over
// it for the key scripts: what `rec doctor` runs each scenario in. The agent's binary is passed as
// its REC_<AGENT>_BIN variable, so rec starts exactly the one the doctor found.
import type { Driver } from './driver.js';
import { EOF, spawn, TIMEOUT, type ExitStatus, type Spawned } from './spawn.js';

/** How long a Ctrl+C at the idle composer gets to end the agent before the next one. */
const QUIT_WAIT_MS = 2_000;
/** rec reads the agent's session file for a short while after the agent exits, then closes the database. */
const REC_EXIT_TIMEOUT_MS = 30_000;

export interface RecUnderPtyOptions {
  /** bin/rec.js of this very rec. */
  readonly recJs: string;
  readonly agent: string;
  readonly dbPath: string;
  readonly cwd: string;
  /** The agent's isolated environment (with its REC_<AGENT>_BIN). */
  readonly env: NodeJS.ProcessEnv;
  readonly cols?: number | undefined;
  readonly rows?: number | undefined;
  /** How long one screen change may take. */
  readonly timeoutMs: number;
  /** What the screen shows once `text` is typed: Enter is pressed only then, so the text is typed, not taken for a paste. */
  readonly typed: (text: string) => string | RegExp;
  /** rec's debug log for this run (REC_DEBUG=1): how it judged each deciding key, for a failed scenario. */
  readonly debugLog?: string | undefined;
  /** Waited for between the typed text showing and its Enter (an agent that takes a quick Enter for a newline). */
  readonly beforeEnter?: () => Promise<void>;
}

export interface RecUnderPty {
  readonly proc: Spawned;
  readonly driver: Driver;
  /** Ctrl+C until the agent ends (at most three), then waits for rec to exit. */
  quit(): Promise<ExitStatus>;
}

export function startRecUnderPty(o: RecUnderPtyOptions): RecUnderPty {
  const proc = spawn(process.execPath, [o.recJs, '--db', o.dbPath, o.agent], {
    cols: o.cols ?? 120,
    rows: o.rows ?? 40,
    cwd: o.cwd,
    env: o.debugLog === undefined ? o.env : { ...o.env, REC_DEBUG: '1', REC_DEBUG_LOG: o.debugLog },
    timeoutMs: o.timeoutMs,
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
  return {
    proc,
    driver,
    async quit() {
      for (let attempt = 0; attempt < 3 && !proc.exitStatus; attempt += 1) {
        proc.sendKey('ctrl-c');
        if ((await proc.expect([EOF, TIMEOUT], QUIT_WAIT_MS)) === 0) break;
      }
      return proc.expectExit(REC_EXIT_TIMEOUT_MS);
    },
  };
}

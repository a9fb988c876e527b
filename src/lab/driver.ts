// What a key script needs from whatever runs an agent CLI (a fixture recorder, or the e2e harness
// under rec), shared by every agent's scenario scripts (codex/recordedScenarios.ts, gemini/recordedScenarios.ts).

export interface Driver {
  /** Waits until the rendered screen matches; with a label, the screen is kept as a fixture frame. */
  waitScreen(re: RegExp, label?: string, timeoutMs?: number): Promise<void>;
  /** Raw bytes to the pty (keys). */
  send(data: string): void;
  /** Types text into the composer, waits until it shows, then presses Enter. */
  line(text: string): Promise<void>;
  resize(cols: number, rows: number): void;
  snap(label: string): void;
  /** The rendered screen now. */
  screen(): string;
  /** How long `press` waits before a deciding key: KEY_SETTLE_MS unless set (0: the instant the screen asks). */
  readonly keySettleMs?: number;
}

export interface RecordedScenario {
  readonly name: string;
  readonly description: string;
  readonly cols?: number;
  readonly rows?: number;
  /** Prepares the project folder before the agent starts (files the scenario's commands need). */
  setup?(workDir: string): void;
  run(d: Driver): Promise<void>;
}

/**
 * Agent TUIs drop a key that arrives within a few milliseconds of a dialog appearing (Codex 0.169.0,
 * measured: 0-5 ms dropped, 50 ms taken), and nothing on screen marks the moment they start
 * listening. So a scenario waits this long after such a screen before its deciding key, about a
 * person's reaction time; it is the only fixed wait in the scripts.
 */
export const KEY_SETTLE_MS = 300;

export function settle(ms: number = KEY_SETTLE_MS): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A deciding key press: waits out the driver's settle time (KEY_SETTLE_MS unless it says otherwise)
 * after the screen that asks, then sends the keys back to back.
 */
export async function press(d: Driver, ...keys: string[]): Promise<void> {
  const ms = d.keySettleMs ?? KEY_SETTLE_MS;
  if (ms > 0) await settle(ms);
  for (const key of keys) d.send(key);
}

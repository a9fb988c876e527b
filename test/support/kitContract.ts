// The contract every agent's test kit (test/support/<agent>/) keeps: the same files, and in each the
// same exported names with the same shapes, so that a suite over all agents is written once
// (describe.each over the kits) and a new agent's kit is known by this list. A kit exports more where
// its agent has more (Codex's network prompts, Claude's inline renderer); the contract is what every
// agent has. test/unit/support/kitContract.test.ts holds each kit to it, by type and by name.
import type { ScreenSnapshot } from '../../src/core/screen.js';
import type { DemoCase } from './demoSuite.js';
import type { AgentReplayOptions } from './recordedRun.js';
import type { SessionsCase } from './sessionsSuite.js';
import type { EventRow } from './sidecarRows.js';

/** `env.ts`: the agent under test and its isolated world. */
export interface KitEnv {
  /** The version under test: the devDependency pin, or the one REC_E2E_<AGENT>_BIN's binary reports. */
  readonly AGENT_VERSION: string;
  /** The binary the suites run; null where the agent's package is not installed here. */
  readonly AGENT_BIN: string | null;
  /** The isolated world (temporary project and HOME, mock model on 127.0.0.1), stopped by `dispose`. */
  readonly createEnv: (opts: never) => { readonly dispose: () => Promise<void> };
}

/** One `rec <agent>` run in a pty, as the e2e suites drive it. */
export interface KitSession {
  quit(): Promise<{ exitCode: number; signal: number | undefined }>;
  rows(): EventRow[];
  dispose(): Promise<void>;
}

/** `recSession.ts`: starting rec on the real agent, and how long its steps may take. */
export interface KitRecSession {
  readonly START_TIMEOUT_MS: number;
  readonly STEP_TIMEOUT_MS: number;
  readonly startRec: (opts?: never) => Promise<KitSession>;
  readonly waitReady: (session: never) => Promise<void>;
}

/** `recordedRun.ts`: the agent's part of the recorded-session replay. */
export interface KitRecordedRun {
  readonly RECORDED_DIR: string;
  readonly replayRecorded: (name: string, options?: AgentReplayOptions) => Promise<unknown>;
}

/** `samples.ts`: the screens and session files sampled from the real agent. */
export interface KitSamples {
  readonly SAMPLES_DIR: string;
  readonly sampleScreen: (name: string) => ScreenSnapshot;
  readonly sampleSessionFile: (name: string) => string[];
}

/** `sampleReplay.ts`: the agent's recorder fed a sample, screen by screen. */
export interface KitSampleReplay {
  readonly AgentReplay: abstract new (...args: never[]) => unknown;
}

/** `demo.ts`: the agent's row of the `rec demo` suite (test/support/demoSuite.ts). */
export interface KitDemo {
  readonly DEMO: DemoCase;
}

/** `sessions.ts`: the agent's row of the sessions suite (test/support/sessionsSuite.ts). */
export interface KitSessions {
  readonly SESSIONS: SessionsCase;
}

/** The contract's files and, in each, the names every kit exports (the interfaces above, as values). */
export const KIT_CONTRACT = {
  env: ['AGENT_VERSION', 'AGENT_BIN', 'createEnv'],
  recSession: ['START_TIMEOUT_MS', 'STEP_TIMEOUT_MS', 'startRec', 'waitReady'],
  recordedRun: ['RECORDED_DIR', 'replayRecorded'],
  samples: ['SAMPLES_DIR', 'sampleScreen', 'sampleSessionFile'],
  sampleReplay: ['AgentReplay'],
  demo: ['DEMO'],
  sessions: ['SESSIONS'],
} as const satisfies Record<string, readonly string[]>;

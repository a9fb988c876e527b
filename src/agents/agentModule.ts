// What the rest of rec knows about one agent: one row of the registry (registry.ts). Everything
// here is cheap data and path arithmetic, so that the registry can be read on any path (`rec
// <agent>` reads it before the agent starts: a row loads nothing but node builtins and its
// agent's strings data, plain constants); the adapter, the reader, the tool table and the bench load
// on demand.
import type { AgentName } from '../core/events.js';
// Type-only, so nothing of the lab loads with a row: the bench's contract is the lab's (the layer
// rule agent-contract-names-the-bench-type-only in .dependency-cruiser.cjs).
import type { AgentBench } from '../lab/bench.js';
import type { ToolTable } from '../readers/action.js';
import type { SessionReader } from '../readers/nativeSession.js';
import type { PermissionRules } from './common/ruleFormat.js';
import type { LaunchContext, LaunchPlan, Recorder, RecorderContext } from './agentAdapter.js';
import type { VerifiedVersion } from './verifiedVersions.js';

/**
 * Where a rejection's reason comes from: typed into the prompt (`inline`, Claude's "tell Claude what
 * to do differently"), or, for agents with no place to type one, the user's next message
 * (`next_message`, core/nextMessageReason.ts).
 */
export type ReasonPolicy = 'inline' | 'next_message';

export interface AgentModule {
  /** Its folder's name under src/agents/, and what the user types: `rec <name>`. */
  readonly name: AgentName;
  /** The agent's own product name, as tables and messages for people print it. */
  readonly displayName: string;
  /** The executable looked up on PATH. */
  readonly binName: string;
  /** The environment variable that overrides the binary, e.g. REC_CODEX_BIN. */
  readonly binEnvVar: string;
  /**
   * The npm package the agent ships in: how to install it (`npm install -g <package>`), and whose
   * package.json above the binary tells the installed version.
   */
  readonly packageName: string;
  /**
   * The agent's own folder (~/.codex, ~/.gemini, ~/.claude), honouring its override variable, an
   * empty one counting as unset as the agent reads it: the one place every path into it starts from.
   */
  home(env: Readonly<Record<string, string | undefined>>): string;
  /** The folders the agent keeps its session files in, below home(). */
  sessionRoots(env: NodeJS.ProcessEnv): string[];
  /** Whether a file found under sessionRoots is one of its session files. */
  isSessionFile(path: string): boolean;
  readonly reasonPolicy: ReasonPolicy;
  /**
   * The versions rec was verified on by running them, oldest first, each with its recorded fixtures:
   * the agent's one version fact (strings/index.ts, with each version's texts). Another version still
   * runs untouched, read with the newest texts; its run and events are marked
   * agent_version_verified=false and merge gives an unknown_version warning.
   */
  readonly verifiedVersions: readonly VerifiedVersion[];
  /**
   * What the agent's hook protocol wants on stdout from a command hook that only observes (`rec
   * hook`). It depends on the agent only, never on whether forwarding worked.
   */
  readonly hookStdout: string;
  /** The launch and the live recorder, loaded on demand. */
  loadAdapter(): Promise<AgentAdapter>;
  /**
   * Its bench (agents/<name>/bench/bench.ts, of the lab layer), loaded on demand: the doctor kit
   * `rec doctor` runs and the demo world `rec demo` starts. Absent: rec records the agent but has no
   * mock model or isolated world for it, and both commands say so.
   */
  loadBench?(): Promise<AgentBench>;

  // Offline, for `rec merge` and `rec stats`.
  /** Whether a path says the agent wrote the file (its folder or its file name). */
  pathSaysAgent(path: string): boolean;
  /**
   * Whether a record's shape says the agent wrote it: `sure` (a field only it writes), `likely`
   * (a shape another agent's record could have too: asked only when no agent is sure), or null.
   */
  recordSaysAgent(record: Readonly<Record<string, unknown>>): 'sure' | 'likely' | null;
  /** Whether a `.json` file of the agent is one JSON document (Gemini's older form), not JSON Lines. */
  readonly wholeJsonFiles: boolean;
  /** The reader of the agent's session files, loaded on demand. */
  loadReader(): Promise<(file: string) => SessionReader>;
  /**
   * Where the agent's records hold a message's text and a tool's output, most likely first: the
   * JSON keys merge looks for to reuse a string literal as it stands (merge/rawLiterals.ts).
   */
  readonly rawLiteralKeys: { readonly userText: readonly string[]; readonly otherText: readonly string[]; readonly output: readonly string[] };
  /** Its tools: the kind of a rejection of each, and the action a call takes (agents/<name>/tools.ts). */
  loadTools(): Promise<ToolTable>;
  /**
   * Its permission rules (agents/<name>/rules.ts), for `rec rules`: how a suggested rule is written,
   * where the agent reads rules, and its existing rules read back. Absent: rec knows no rule format
   * of the agent, and says so. Plain functions over node builtins, cheap to load with the row.
   */
  readonly permissionRules?: PermissionRules;
}

/** The live half of a row, loaded on demand (agents/<name>/adapter.ts). */
export interface AgentAdapter {
  /** The registry row it belongs to (its name, binary, versions): referenced, never copied. */
  readonly module: AgentModule;
  /** Arguments and environment for this run, with hooks wired for this run only. */
  prepareLaunch(ctx: LaunchContext): LaunchPlan;
  /** May load its modules lazily: it is called after the agent has started. */
  createRecorder(ctx: RecorderContext): Recorder | Promise<Recorder>;
}

// What the mock model answers. A scenario is the list of replies for one user turn: reply 0 answers
// the user's message, reply N answers after the Nth batch of tool outputs. A user message picks its
// scenario with a marker such as `SCN=shell` (the research's convention); without one, `say` answers.

/** One function call the mock asks Codex to make. */
export interface MockCall {
  /** Defaults to `exec_command`, the only shell tool Codex 0.169.0 offers an unknown model. */
  readonly name?: string;
  /** The tool namespace the name lives in, e.g. `mcp__marker` for an MCP server's tools (Codex 0.171.0 advertises those as a namespace). */
  readonly namespace?: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export type MockReply =
  /** Plain assistant text; with `delayMs`, streamed in `chunkChars`-sized deltas, one per delay. */
  | { readonly type: 'text'; readonly text: string; readonly chunkChars?: number; readonly delayMs?: number }
  /** Function calls in one response (several = parallel calls), optionally after some text. */
  | { readonly type: 'calls'; readonly calls: readonly MockCall[]; readonly text?: string };

export interface ReplyContext {
  /** The user's latest own message (harness messages such as `<turn_aborted>` skipped). */
  readonly userText: string;
  /** 0 for the reply to the user's message, N after the Nth batch of tool outputs. */
  readonly step: number;
}

export type Scenario = readonly MockReply[] | ((ctx: ReplyContext) => MockReply);

/** What every scenario says once its scripted replies are used up (e.g. after the tool output). */
export const DONE_TEXT = 'Done.';

/** The delay between streamed deltas of the `text` scenario: slow enough for a person (or a test) to cut it. */
export const SLOW_STREAM_DELAY_MS = 400;

/** An `exec_command` that needs approval: `require_escalated` plus a justification make Codex prompt. */
export function escalated(cmd: string, justification: string, yieldTimeMs = 1000): MockCall {
  return {
    args: { cmd, yield_time_ms: yieldTimeMs, sandbox_permissions: 'require_escalated', justification },
  };
}

/** A patch as Codex 0.169.0 receives it from a model without an apply_patch tool: a heredoc. */
export function applyPatchHeredoc(patch: string): MockCall {
  return { args: { cmd: `apply_patch <<'EOF'\n${patch}\nEOF`, yield_time_ms: 1000 } };
}

/** The slow text of the `text` scenario: numbered words, so a cut-off prefix is easy to check. */
export const SLOW_TEXT = `Counting slowly: ${Array.from({ length: 150 }, (_, i) => `w${i + 1}`).join(' ')}. End of count.`;

export const LONG_COMMAND =
  'echo "this is a deliberately long command line that has to wrap across several rows of the approval prompt ' +
  'so that the recorder must join the wrapped rows back into one command before matching it" > long.txt && cat long.txt';

/** npm takes about a second to start on a loaded machine: the call waits for it, so its output is whole. */
const NPM_YIELD_MS = 10_000;

/**
 * Plain commands (no redirection, no compound), asked for one after another in one turn: what
 * `rec rules` can turn into a prefix rule once they are approved. The project's `test` script is
 * set up by the recorded scenario that asks for them.
 */
export const NPM_TEST_CALLS: readonly MockCall[] = [
  escalated('npm test', 'Run the tests?', NPM_YIELD_MS),
  escalated('npm test -- --grep parser', 'Run the parser tests?', NPM_YIELD_MS),
  escalated('npm test -- a.test.js', 'Run a.test.js?', NPM_YIELD_MS),
];

/** A command no rule made from NPM_TEST_CALLS covers: it must still prompt (refused, so never created). */
export const RULES_UNCOVERED_FILE = 'rules-uncovered.txt';

/** The server and tool of test/fakes/mcp/markerServer.mjs as Codex offers it: namespace `mcp__marker`. */
export const MCP_NAMESPACE = 'mcp__marker';
export const MCP_TOOL = 'touch_marker';
/** How many times the `mcp` scenario calls the MCP tool in one turn, one call after another. */
export const MCP_CALLS = 5;

/** The file the `mcp` scenario's call number `n` (1-based) asks the marker server to create. */
export function mcpMarkerFile(n: number): string {
  return `mcp-marker-${n}.txt`;
}

/**
 * The hosts the `net` scenario's commands fetch, one call each, one after the other: the second
 * host twice, so that "allow this host for this conversation" shows on the call that is not asked.
 * No managed allowlist names them, so Codex asks (docs/codex-prompts.md).
 */
export const NETWORK_HOSTS = ['one.example.com', 'two.example.com', 'two.example.com', 'three.example.com'] as const;

/** The command the `net` scenario's call number `n` (1-based) runs: a fetch Codex's network proxy sees. */
export function networkCommand(n: number): string {
  return `curl -sS -m 60 http://${NETWORK_HOSTS[n - 1]}/`;
}

/** A fetch whose command does not name its host: only Codex's PermissionRequest hook ties it to its prompt. */
export const INDIRECT_NETWORK_COMMAND = 'curl -sS -m 60 "http://$(echo one).example.com/"';

/** The `review1` scenario's one escalated call: with auto-review on, the reviewer decides it, not a prompt. */
export const REVIEW_COMMAND = 'echo reviewed > reviewed.txt && cat reviewed.txt';
export const REVIEW_FILE = 'reviewed.txt';

/**
 * The `review3` scenario's escalated calls, one after another in one turn (each the reply to the
 * previous one's output), distinct so each is reviewed afresh: three denials in a row trip Codex's
 * circuit breaker, which interrupts the turn itself (docs/codex-auto-review.md).
 */
export const REVIEW3_COMMANDS = [1, 2, 3].map((n) => `echo reviewed${n} > reviewed${n}.txt`);

export const DEFAULT_SCENARIOS: Readonly<Record<string, Scenario>> = {
  shell: [
    {
      type: 'calls',
      calls: [escalated('echo hello > approved.txt && cat approved.txt', 'Write approved.txt in the workspace?')],
    },
  ],
  parallel: [
    {
      type: 'calls',
      calls: [
        escalated('echo one > p1.txt', 'Write p1.txt?'),
        escalated('echo two > p2.txt', 'Write p2.txt?'),
        escalated('echo three > p3.txt', 'Write p3.txt?'),
      ],
    },
  ],
  patch: [
    {
      type: 'calls',
      calls: [applyPatchHeredoc('*** Begin Patch\n*** Add File: patched.txt\n+line one\n+line two\n*** End Patch')],
    },
  ],
  npmtest: NPM_TEST_CALLS.map((c) => ({ type: 'calls' as const, calls: [c] })),
  rulesuncovered: [{ type: 'calls', calls: [escalated(`touch ${RULES_UNCOVERED_FILE}`, `Create ${RULES_UNCOVERED_FILE}?`)] }],
  sleep: [{ type: 'calls', calls: [escalated('sleep 60; echo slept', 'Sleep 60 seconds?', 30_000)] }],
  long: [{ type: 'calls', calls: [escalated(LONG_COMMAND, 'Write long.txt with a long explanation?')] }],
  text: [{ type: 'text', text: SLOW_TEXT, chunkChars: 4, delayMs: SLOW_STREAM_DELAY_MS }],
  mcp: Array.from({ length: MCP_CALLS }, (_, i): MockReply => ({
    type: 'calls',
    calls: [{ name: MCP_TOOL, namespace: MCP_NAMESPACE, args: { name: mcpMarkerFile(i + 1) } }],
  })),
  net: NETWORK_HOSTS.map((_, i): MockReply => ({ type: 'calls', calls: [{ args: { cmd: networkCommand(i + 1), yield_time_ms: 10_000 } }] })),
  netindirect: [{ type: 'calls', calls: [{ args: { cmd: INDIRECT_NETWORK_COMMAND, yield_time_ms: 10_000 } }] }],
  review1: [{ type: 'calls', calls: [escalated(REVIEW_COMMAND, `Write ${REVIEW_FILE} in the workspace?`)] }],
  review3: REVIEW3_COMMANDS.map((cmd, i): MockReply => ({ type: 'calls', calls: [escalated(cmd, `Write reviewed${i + 1}.txt in the workspace?`)] })),
  say: ({ userText }) => ({ type: 'text', text: `Noted: ${userText.replace(/SCN=\S+\s*/, '').trim()}` }),
};

/** The scenario name in a user message, e.g. `shell` in "SCN=shell please write the file". */
export function scenarioMarker(text: string): string | undefined {
  return /\bSCN=([\w-]+)/.exec(text)?.[1];
}

export function pickReply(scenario: Scenario, ctx: ReplyContext): MockReply {
  if (typeof scenario === 'function') return scenario(ctx);
  return scenario[ctx.step] ?? { type: 'text', text: DONE_TEXT };
}

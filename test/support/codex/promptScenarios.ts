// Codex's approval form for a tool of an MCP server (kind mcp), and its network prompt (kind
// network, under managed network requirements: src/agents/codex/bench/managedNetwork.ts), measured on Codex
// 0.171.0. The MCP form with the one-tool stdio server test/fakes/mcp/markerServer.mjs (markerMcpToml). The mock's `mcp` scenario
// calls the tool five times in one turn, one call after the other; a refused call does not end the
// turn. The same key scripts drive the fixture recorder (scripts/record-codex-fixtures.mjs, into
// recorded/) and `rec codex` in the e2e tests (recCodexPrompts.test.ts).
import { press, type Driver, type RecordedScenario } from '../../../src/lab/driver.js';
import { KEY, SCREEN } from '../../../src/agents/codex/bench/recordedScenarios.js';
import { MCP_CALLS, NETWORK_HOSTS, REVIEW3_COMMANDS } from '../../../src/lab/mock/openaiResponses/scenarios.js';
import type { CodexHookEvent } from '../../../src/agents/codex/hookSettings.js';

/** The form as Codex 0.171.0 draws it, from its question to its footer, with row 1 highlighted. */
export const MCP_FORM = /Allow the marker MCP server to run tool "touch_marker"\?[\s\S]*› 1\. Allow {2,}Run the tool[\s\S]*enter to submit \| esc to cancel/;

/** The history rows of the n-th finished call (1-based): `Called` when it ran, `Failed` when cancelled. */
function finished(n: number): RegExp {
  return new RegExp(`^• (?:Called|Failed) marker\\.touch_marker(?:[\\s\\S]*?^• (?:Called|Failed) marker\\.touch_marker){${n - 1}}`, 'm');
}

export interface PromptScenario extends RecordedScenario {
  /** Codex gets the one-tool MCP server (markerMcpToml). */
  readonly mcpServer?: boolean;
  /** Codex runs under managed network requirements, in a private /etc (src/agents/codex/bench/managedNetwork.ts). */
  readonly managedNetwork?: boolean;
  /** The user's own flags for Codex. */
  readonly codexArgs?: readonly string[];
  /** The user's own hook in config.toml, answering as its arguments say (test/fakes/hooks/userHook.mjs). */
  readonly userHook?: { readonly event: CodexHookEvent; readonly args: readonly string[] };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Codex's network prompt for `host`, whole, after the turn's message. */
export function networkForm(turn: string, host: string): RegExp {
  return new RegExp(`› ${escapeRe(turn)}[\\s\\S]*Do you want to approve network access to "${escapeRe(host)}"\\?[\\s\\S]*4\\. No, and tell Codex what to do differently \\(esc\\)[\\s\\S]*Press enter to confirm or esc to cancel`);
}

/** What ends a turn of the `net` scenario: `Done.` once every call ran, or the interruption a refusal brings. */
function turnEnded(turn: string, refused: boolean): RegExp {
  return new RegExp(`› ${escapeRe(turn)}[\\s\\S]*${refused ? 'Conversation interrupted' : '^• Done\\.$'}`, 'm');
}

/**
 * One turn of the `net` scenario: the keys answer the prompts in order, one per host asked (a host
 * allowed for the conversation or for good is not asked again). A last refusing key ends the turn.
 */
async function networkTurn(d: Driver, turn: string, answers: ReadonlyArray<readonly [host: string, key: string]>, refused: boolean): Promise<void> {
  // Frame labels are one word: the recorded screens' headers are split at spaces.
  const label = turn.replace(/^SCN=\S+\s*/, '').replace(/\s+/g, '-');
  await d.line(turn);
  for (const [i, [host, key]] of answers.entries()) {
    await d.waitScreen(networkForm(turn, host), `${label}-form-${i + 1}`);
    await press(d, key);
  }
  await d.waitScreen(turnEnded(turn, refused), `${label}-ended`);
}

const [ONE, TWO, , THREE] = NETWORK_HOSTS;

/** Sends the turn and answers the form of each call with one key; the calls after the keys run unasked. */
async function answerEach(d: Driver, keys: readonly string[]): Promise<void> {
  await d.line('SCN=mcp call the tool');
  for (const [i, key] of keys.entries()) {
    await d.waitScreen(MCP_FORM, `form-${i + 1}`);
    await press(d, key);
    await d.waitScreen(finished(i + 1), `decided-${i + 1}`);
  }
  await d.waitScreen(finished(MCP_CALLS), 'all-calls');
  await d.waitScreen(SCREEN.done, 'done');
}

export const PROMPT_SCENARIOS: readonly PromptScenario[] = [
  {
    name: 'mcp-keys',
    description: 'an MCP tool’s form: Esc, 4 (Cancel), Enter (Allow), 2 (Allow for this session), then a call with no form',
    mcpServer: true,
    run: (d) => answerEach(d, [KEY.esc, '4', KEY.enter, '2']),
  },
  {
    name: 'mcp-always',
    description: 'an MCP tool’s form: 3 (Always allow) writes the tool’s approval_mode to config.toml; four calls with no form',
    mcpServer: true,
    run: (d) => answerEach(d, ['3']),
  },
  {
    name: 'net-keys',
    description: 'the network prompt: y (once), a (this conversation; its second fetch is not asked), Esc; then n, then 4, each in a turn of its own',
    managedNetwork: true,
    run: async (d) => {
      await networkTurn(d, 'SCN=net first turn', [[ONE, 'y'], [TWO, 'a'], [THREE, KEY.esc]], true);
      await networkTurn(d, 'SCN=net second turn', [[ONE, 'n']], true);
      await networkTurn(d, 'SCN=net third turn', [[ONE, '4']], true);
    },
  },
  {
    name: 'net-always',
    description: 'the network prompt: p (in the future) writes a network_rule to rules/default.rules; a next turn fetches every host unasked',
    managedNetwork: true,
    run: async (d) => {
      await networkTurn(d, 'SCN=net first turn', [[ONE, 'p'], [TWO, 'a'], [THREE, 'p']], false);
      await networkTurn(d, 'SCN=net second turn', [], false);
    },
  },
];

/** The message the user's hook refuses with in HOOK_SCENARIOS. */
export const HOOK_MESSAGE = 'USER-HOOK: writes need a ticket';
/** The history rows of the n-th hook refusal (1-based) with HOOK_MESSAGE. */
function blocked(n: number): RegExp {
  return new RegExp(`(?:^• Blocked by hook\\n {2}└ ${HOOK_MESSAGE}[\\s\\S]*?){${n}}`, 'm');
}

/** Sends the turn; the hook answers each call in turn, no prompt is drawn. */
async function hookTurn(d: Driver, scenario: 'review1' | 'review3', refused: number): Promise<void> {
  await d.line(`SCN=${scenario} write the files`);
  for (let n = 1; n <= refused; n++) await d.waitScreen(blocked(n), `blocked-${n}`);
  await d.waitScreen(SCREEN.done, 'done');
}

/**
 * A user's own hook answers Codex's approval requests (Codex 0.171.0, docs/codex-auto-review.md §6):
 * no prompt is drawn and the reviewer, if on, is never asked.
 */
export const HOOK_SCENARIOS: readonly PromptScenario[] = [
  {
    name: 'hook-deny',
    description: `a PermissionRequest hook of the user's denies each of ${REVIEW3_COMMANDS.length} escalated calls with its message; the turn goes on`,
    userHook: { event: 'PermissionRequest', args: ['deny', HOOK_MESSAGE] },
    run: (d) => hookTurn(d, 'review3', REVIEW3_COMMANDS.length),
  },
  {
    name: 'hook-deny-auto-review',
    description: "with --approve-for-me, a PermissionRequest hook of the user's denies the escalated call; the reviewer is never asked",
    codexArgs: ['--approve-for-me'],
    userHook: { event: 'PermissionRequest', args: ['deny', HOOK_MESSAGE] },
    run: (d) => hookTurn(d, 'review1', 1),
  },
  {
    name: 'hook-allow',
    description: "a PermissionRequest hook of the user's allows the escalated call: it runs, no prompt is drawn",
    userHook: { event: 'PermissionRequest', args: ['allow'] },
    run: (d) => hookTurn(d, 'review1', 0),
  },
  {
    name: 'hook-block-pretooluse',
    description: "a PreToolUse hook of the user's blocks the call with its reason; no prompt is drawn",
    userHook: { event: 'PreToolUse', args: ['block', HOOK_MESSAGE] },
    run: (d) => hookTurn(d, 'review1', 1),
  },
];

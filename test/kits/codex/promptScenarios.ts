// Codex's approval form for a tool of an MCP server (kind mcp), measured on Codex 0.171.0 with the
// one-tool stdio server test/fakes/mcp/markerServer.mjs (markerMcpToml). The mock's `mcp` scenario
// calls the tool five times in one turn, one call after the other; a refused call does not end the
// turn. The same key scripts drive the fixture recorder (scripts/record-codex-fixtures.mjs, into
// recorded/) and `rec codex` in the e2e tests (recCodexPrompts.test.ts).
import { press, type Driver, type RecordedScenario } from '../../../src/lab/driver.js';
import { KEY, SCREEN } from '../../../src/lab/codex/recordedScenarios.js';
import { MCP_CALLS } from '../../../src/lab/mock/scenarios.js';

/** The form as Codex 0.171.0 draws it, from its question to its footer, with row 1 highlighted. */
export const MCP_FORM = /Allow the marker MCP server to run tool "touch_marker"\?[\s\S]*› 1\. Allow {2,}Run the tool[\s\S]*enter to submit \| esc to cancel/;

/** The history rows of the n-th finished call (1-based): `Called` when it ran, `Failed` when cancelled. */
function finished(n: number): RegExp {
  return new RegExp(`^• (?:Called|Failed) marker\\.touch_marker(?:[\\s\\S]*?^• (?:Called|Failed) marker\\.touch_marker){${n - 1}}`, 'm');
}

export interface PromptScenario extends RecordedScenario {
  /** Codex gets the one-tool MCP server (markerMcpToml). */
  readonly mcpServer?: boolean;
}

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
];

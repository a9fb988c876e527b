#!/usr/bin/env node
// @ts-check
// A fake GitHub Copilot CLI 1.0.102 for tests: draws its permission box full screen, reacts to the
// same keys (digits, arrows+Enter, Esc; the "No, and tell Copilot…" option is a text field; Esc or
// Ctrl+C at a prompt cancels the turn; Esc twice or Ctrl+C once cuts a running turn) and writes
// $COPILOT_HOME/session-state/<uuid>/events.jsonl in Copilot's shapes (lib/copilotStrings.mjs names
// the sources).
//   fake-copilot [--scenario NAME|FILE.json] [--session-id UUID] [-i PROMPT | prompt]   (or FAKE_SCENARIO=…)
import { parseArgs, loadScenario } from './lib/scenario.mjs';
import { runWithTerminal } from './lib/term.mjs';
import { InkScenario, inkBuiltins } from './lib/inkScenario.mjs';
import { InkApp } from './lib/inkApp.mjs';
import { CopilotSession } from './lib/copilotSession.mjs';
import { copilotProfile } from './lib/copilotProfile.mjs';
import { versionLines } from './lib/copilotStrings.mjs';

/** Real Copilot flags that take a value (`--resume` takes one only as `--resume=<id>`). */
const VALUE_FLAGS = ['--model', '-i', '--interactive', '-p', '--prompt', '--session-id', '--allow-tool', '--deny-tool', '--add-dir', '--available-tools', '--excluded-tools', '--log-level', '--log-dir', '--agent', '--config-dir'];

/**
 * The built-in scenarios of the other fakes, with a shell command Copilot offers no "don't ask again"
 * for (an `echo` with a redirection, as recorded), so that its box has the two options of §2.
 */
const BUILTINS = {
  ...inkBuiltins((s) => `SCENARIO ${s}`),
  shell: { prompt: 'SCENARIO shell please do the thing', turns: [{ preface: 'I will run a command.', calls: [{ tool: 'shell', command: 'echo fake-copilot-ran > shell_marker.txt', description: 'Create a marker file' }] }] },
};

async function main() {
  const { scenario: scenarioArg, flags, positional } = parseArgs(process.argv.slice(2), VALUE_FLAGS);
  if (flags['--version'] || flags['-v']) {
    process.stdout.write(versionLines.join('\n') + '\n');
    return 0;
  }
  const cwd = process.cwd();
  const loaded = loadScenario({ arg: scenarioArg, builtins: BUILTINS, schema: InkScenario, cwd, defaultName: 'idle' });
  if (!loaded.ok) {
    process.stderr.write(`fake-copilot: ${loaded.error}\n`);
    return 2;
  }
  const sessionId = typeof flags['--session-id'] === 'string' ? flags['--session-id'] : undefined;
  const session = new CopilotSession({ cwd, sessionId });
  const profile = copilotProfile({ cwd, session });
  const interactive = flags['-i'] ?? flags['--interactive'];
  const initialPrompt = typeof interactive === 'string' ? interactive : positional.length ? positional.join(' ') : undefined;
  return runWithTerminal((term) => new InkApp(term, { profile, scenario: loaded.scenario, cwd, initialPrompt }).run());
}

process.exitCode = await main();

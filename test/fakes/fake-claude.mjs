#!/usr/bin/env node
// @ts-check
// A fake Claude Code 2.1.328 for tests: draws its permission dialogs, reacts to the same keys
// (digits, arrows+Enter, Esc, Tab to amend, Ctrl+C ignored at a dialog) and writes the transcript
// in Claude's shapes (lib/claudeStrings.mjs names the sources).
//   fake-claude [--scenario NAME|FILE.json] [--session-id UUID] [prompt]   (or FAKE_SCENARIO=…)
import { parseArgs, loadScenario } from './lib/scenario.mjs';
import { runWithTerminal } from './lib/term.mjs';
import { InkScenario, inkBuiltins } from './lib/inkScenario.mjs';
import { InkApp } from './lib/inkApp.mjs';
import { ClaudeTranscript } from './lib/claudeTranscript.mjs';
import { claudeProfile } from './lib/claudeProfile.mjs';
import { AGENT_VERSION } from './lib/claudeStrings.mjs';

/** Real Claude flags that take a value. */
const VALUE_FLAGS = ['--session-id', '--settings', '--permission-mode', '--model', '--resume', '-r', '--add-dir', '--allowedTools', '--disallowedTools', '--output-format', '--input-format'];

async function main() {
  const { scenario: scenarioArg, flags, positional } = parseArgs(process.argv.slice(2), VALUE_FLAGS);
  if (flags['--version'] || flags['-v']) {
    process.stdout.write(`${AGENT_VERSION} (Claude Code)\n`);
    return 0;
  }
  const cwd = process.cwd();
  const loaded = loadScenario({ arg: scenarioArg, builtins: inkBuiltins((s) => `SCENARIO ${s}`), schema: InkScenario, cwd, defaultName: 'idle' });
  if (!loaded.ok) {
    process.stderr.write(`fake-claude: ${loaded.error}\n`);
    return 2;
  }
  const session = new ClaudeTranscript({ cwd, sessionId: typeof flags['--session-id'] === 'string' ? flags['--session-id'] : undefined });
  const profile = claudeProfile({ cwd, session });
  const initialPrompt = positional.length ? positional.join(' ') : undefined;
  return runWithTerminal((term) => new InkApp(term, { profile, scenario: loaded.scenario, cwd, initialPrompt }).run());
}

process.exitCode = await main();

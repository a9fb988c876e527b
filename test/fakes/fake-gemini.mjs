#!/usr/bin/env node
// @ts-check
// A fake Gemini CLI 0.61.0 for tests: draws its confirmation dialogs, reacts to the same keys
// (digits, arrows+Enter, Esc; Ctrl+C cancels and arms exit) and writes the session JSONL in
// Gemini's shapes (lib/geminiStrings.mjs names the sources).
//   fake-gemini [--scenario NAME|FILE.json] [prompt]   (or FAKE_SCENARIO=…; HOME for ~/.gemini)
import { parseArgs, loadScenario } from './lib/scenario.mjs';
import { runWithTerminal } from './lib/term.mjs';
import { InkScenario, inkBuiltins } from './lib/inkScenario.mjs';
import { InkApp } from './lib/inkApp.mjs';
import { GeminiSession } from './lib/geminiSession.mjs';
import { geminiProfile } from './lib/geminiProfile.mjs';
import { AGENT_VERSION } from './lib/geminiStrings.mjs';

/** Real Gemini flags that take a value. */
const VALUE_FLAGS = ['-m', '--model', '-p', '--prompt', '-i', '--prompt-interactive', '--approval-mode', '--resume', '-r', '--output-format', '--include-directories'];

async function main() {
  const { scenario: scenarioArg, flags, positional } = parseArgs(process.argv.slice(2), VALUE_FLAGS);
  if (flags['--version'] || flags['-v']) {
    process.stdout.write(`${AGENT_VERSION}\n`);
    return 0;
  }
  const cwd = process.cwd();
  const loaded = loadScenario({ arg: scenarioArg, builtins: inkBuiltins((s) => `[[scenario:${s}]]`), schema: InkScenario, cwd, defaultName: 'idle' });
  if (!loaded.ok) {
    process.stderr.write(`fake-gemini: ${loaded.error}\n`);
    return 2;
  }
  const session = new GeminiSession({ cwd });
  const profile = geminiProfile({ cwd, session });
  const initialPrompt = positional.length ? positional.join(' ') : undefined;
  return runWithTerminal((term) => new InkApp(term, { profile, scenario: loaded.scenario, cwd, initialPrompt }).run());
}

process.exitCode = await main();

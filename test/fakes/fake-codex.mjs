#!/usr/bin/env node
// @ts-check
// A fake Codex CLI 0.169.0 for tests: draws Codex's approval prompts, reacts to the same keys and
// writes a rollout in Codex's shapes (see lib/codexStrings.mjs for the sources).
//   fake-codex [--scenario NAME|FILE.json] [prompt]     (or FAKE_SCENARIO=…; CODEX_HOME for the rollout)
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, loadScenario } from './lib/scenario.mjs';
import { runWithTerminal } from './lib/term.mjs';
import { CodexScenario, codexBuiltins } from './lib/codexScenario.mjs';
import { CodexApp } from './lib/codexApp.mjs';
import { finishInBackground } from './lib/codexBackground.mjs';
import { AGENT_VERSION } from './lib/codexStrings.mjs';

/** Real Codex flags that take a value, so their values are not mistaken for a prompt. */
const VALUE_FLAGS = ['-c', '--config', '-m', '--model', '-a', '--ask-for-approval', '-s', '--sandbox', '-C', '--cd', '-p', '--profile', '-i', '--image', '--finish-background'];

async function main() {
  const { scenario: scenarioArg, flags, positional } = parseArgs(process.argv.slice(2), VALUE_FLAGS);
  if (flags['--finish-background']) return finishInBackground(JSON.parse(flags['--finish-background']));
  if (flags['--version'] || flags['-V']) {
    process.stdout.write(`codex-cli ${AGENT_VERSION}\n`);
    return 0;
  }
  const cwd = flags['-C'] ?? flags['--cd'] ?? process.cwd();
  const loaded = loadScenario({ arg: scenarioArg, builtins: codexBuiltins, schema: CodexScenario, cwd, defaultName: 'idle' });
  if (!loaded.ok) {
    process.stderr.write(`fake-codex: ${loaded.error}\n`);
    return 2;
  }
  const codexHome = process.env.CODEX_HOME ?? join(homedir(), '.codex');
  const initialPrompt = positional.length ? positional.join(' ') : undefined;
  const entryScript = fileURLToPath(import.meta.url);
  return runWithTerminal((term) => new CodexApp(term, { scenario: loaded.scenario, cwd, codexHome, initialPrompt, entryScript }).run());
}

process.exitCode = await main();

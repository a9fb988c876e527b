// Where Gemini CLI keeps its files: ~/.gemini, where `~` is $GEMINI_CLI_HOME when set (Gemini 0.61
// homedir()), else $HOME; an empty one counts as unset. Kept free of heavy imports: the launch and
// the registry row read it.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function geminiHome(env: Readonly<Record<string, string | undefined>>): string {
  return join(env['GEMINI_CLI_HOME'] || env['HOME'] || homedir(), '.gemini');
}

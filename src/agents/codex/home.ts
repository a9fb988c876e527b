// Where Codex keeps its files (rollouts, rules, config.toml).
import { homedir } from 'node:os';
import { join } from 'node:path';

/** $CODEX_HOME, else ~/.codex; an empty CODEX_HOME counts as unset, as Codex itself reads it. */
export function codexHome(env: Readonly<Record<string, string | undefined>>): string {
  return env['CODEX_HOME'] || join(env['HOME'] || homedir(), '.codex');
}

// Where Claude Code keeps its files (transcripts under projects/, the user's settings.json).
import { homedir } from 'node:os';
import { join } from 'node:path';

/** $CLAUDE_CONFIG_DIR, else ~/.claude; an empty CLAUDE_CONFIG_DIR counts as unset, as Claude reads it. */
export function claudeHome(env: Readonly<Record<string, string | undefined>>): string {
  return env['CLAUDE_CONFIG_DIR'] || join(env['HOME'] || homedir(), '.claude');
}

// Picks the texts for a Claude Code version. Unknown versions get the newest known texts: the run is
// recorded as it comes and its run row names the version. (rec merge says when a version was not
// measured, module.ts isKnownClaudeVersion; the live recorder does not say so yet.)
import type { ClaudeStrings } from './schema.js';
import { CLAUDE_2_1_330 } from './v2_1_330.js';

export type { ClaudeStrings } from './schema.js';

/** 2.1.328 was measured too: the same texts (docs/claude.md). */
const KNOWN: ReadonlyArray<readonly [string, ClaudeStrings]> = [
  ['2.1.330', CLAUDE_2_1_330],
  ['2.1.328', CLAUDE_2_1_330],
];

export const LATEST_CLAUDE_STRINGS: ClaudeStrings = CLAUDE_2_1_330;

export function claudeStringsFor(version: string | undefined): ClaudeStrings {
  return KNOWN.find(([v]) => v === version)?.[1] ?? LATEST_CLAUDE_STRINGS;
}

// Picks the texts for a Claude Code version. Unknown versions get the newest known texts: the run is
// recorded as it comes, its events say which version wrote them, and rec says once that the
// version was not measured (module.ts isKnownClaudeVersion).
import type { ClaudeStrings } from './claudeStrings.js';
import { CLAUDE_2_1_330 } from './v2_1_330.js';

export type { AmendLabel, ClaudeStrings, OptionMeaning, PromptTitle } from './claudeStrings.js';

/** 2.1.328 was measured too: the same texts (README §8). */
const KNOWN: ReadonlyArray<readonly [string, ClaudeStrings]> = [
  ['2.1.330', CLAUDE_2_1_330],
  ['2.1.328', CLAUDE_2_1_330],
];

export const LATEST_CLAUDE_STRINGS: ClaudeStrings = CLAUDE_2_1_330;

export function claudeStringsFor(version: string | undefined): ClaudeStrings {
  return KNOWN.find(([v]) => v === version)?.[1] ?? LATEST_CLAUDE_STRINGS;
}

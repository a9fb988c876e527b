// Picks the texts for a Gemini CLI version. Unknown versions get the newest known texts: a near miss
// still records more than nothing (the version is recorded too, and marked unverified).
import type { GeminiStrings } from './schema.js';
import { GEMINI_0_61_0 } from './v0_61_0.js';

export type { GeminiStrings } from './schema.js';

const KNOWN: readonly GeminiStrings[] = [GEMINI_0_61_0];

export const LATEST_GEMINI_STRINGS: GeminiStrings = GEMINI_0_61_0;

export function geminiStringsFor(version: string | undefined): GeminiStrings {
  return KNOWN.find((s) => s.version === version) ?? LATEST_GEMINI_STRINGS;
}

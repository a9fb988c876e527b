// Picks the texts for a Codex version. Unknown versions get the newest known texts: Codex changes
// its wording rarely, and a near miss still records more than nothing (the version is recorded too).
import type { CodexStrings } from './schema.js';
import { CODEX_0_169_0 } from './v0_169_0.js';

export type { CodexPromptKind, CodexStrings, TaskMenuAction } from './schema.js';

const KNOWN: readonly CodexStrings[] = [CODEX_0_169_0];

export const LATEST_CODEX_STRINGS: CodexStrings = CODEX_0_169_0;

export function codexStringsFor(version: string | undefined): CodexStrings {
  return KNOWN.find((s) => s.version === version) ?? LATEST_CODEX_STRINGS;
}

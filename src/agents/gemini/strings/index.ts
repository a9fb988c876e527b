// The Gemini CLI versions rec was verified on, oldest first, each with its texts and its recordings:
// the one version fact of this agent (module.ts names it as verifiedVersions; ../../verifiedVersions.ts
// says who reads it). Its last entry is the devDependency pin in package.json, a test holds them
// equal. A version not listed is read with the newest entry's texts, and its rows say unverified.
import type { VerifiedStrings } from '../../verifiedVersions.js';
import { stringsFor, newestVerified } from '../../verifiedVersions.js';
import type { GeminiStrings } from './schema.js';
import { GEMINI_0_61_0 } from './v0_61_0.js';

export type { GeminiStrings } from './schema.js';

export const GEMINI_VERSIONS: readonly VerifiedStrings<GeminiStrings>[] = [
  { version: '0.61.0', strings: GEMINI_0_61_0, fixtures: 'test/fixtures/gemini/0.61.0' },
];

export const LATEST_GEMINI_STRINGS: GeminiStrings = newestVerified(GEMINI_VERSIONS).strings;

export function geminiStringsFor(version: string | undefined): GeminiStrings {
  return stringsFor(GEMINI_VERSIONS, version);
}

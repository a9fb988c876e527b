// The Claude Code versions rec was verified on, oldest first, each with its texts and its recordings:
// the one version fact of this agent (module.ts names it as verifiedVersions; ../../verifiedVersions.ts
// says who reads it). Its last entry is the devDependency pin in package.json, a test holds them
// equal. A version not listed is read with the newest entry's texts, and its rows say unverified.
import type { VerifiedStrings } from '../../verifiedVersions.js';
import { stringsFor, newestVerified } from '../../verifiedVersions.js';
import type { ClaudeStrings } from './schema.js';
import { CLAUDE_2_1_330 } from './v2_1_330.js';
import { CLAUDE_2_1_332 } from './v2_1_332.js';

export type { ClaudeStrings } from './schema.js';

export const CLAUDE_VERSIONS: readonly VerifiedStrings<ClaudeStrings>[] = [
  { version: '2.1.330', strings: CLAUDE_2_1_330, fixtures: 'test/fixtures/claude/2.1.330' },
  { version: '2.1.332', strings: CLAUDE_2_1_332, fixtures: 'test/fixtures/claude/2.1.332' },
];

export const LATEST_CLAUDE_STRINGS: ClaudeStrings = newestVerified(CLAUDE_VERSIONS).strings;

export function claudeStringsFor(version: string | undefined): ClaudeStrings {
  return stringsFor(CLAUDE_VERSIONS, version);
}

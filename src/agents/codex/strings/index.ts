// The Codex CLI versions rec was verified on, oldest first, each with its texts and its recordings:
// the one version fact of this agent (module.ts names it as verifiedVersions; ../../verifiedVersions.ts
// says who reads it). Its last entry is the devDependency pin in package.json, a test holds them
// equal. A version not listed is read with the newest entry's texts, and its rows say unverified.
import type { VerifiedStrings } from '../../verifiedVersions.js';
import { stringsFor, newestVerified } from '../../verifiedVersions.js';
import type { CodexStrings } from './schema.js';
import { CODEX_0_169_0 } from './v0_169_0.js';
import { CODEX_0_171_0 } from './v0_171_0.js';

export type { CodexPromptKind, CodexStrings, TaskMenuAction } from './schema.js';

export const CODEX_VERSIONS: readonly VerifiedStrings<CodexStrings>[] = [
  { version: '0.169.0', strings: CODEX_0_169_0, fixtures: 'test/fixtures/codex/0.169.0' },
  { version: '0.171.0', strings: CODEX_0_171_0, fixtures: 'test/fixtures/codex/0.171.0' },
];

export const LATEST_CODEX_STRINGS: CodexStrings = newestVerified(CODEX_VERSIONS).strings;

export function codexStringsFor(version: string | undefined): CodexStrings {
  return stringsFor(CODEX_VERSIONS, version);
}

// The GitHub Copilot CLI versions rec was verified on, oldest first, each with its texts and its
// recordings: the one version fact of this agent (../../verifiedVersions.ts says who reads it). Its
// last entry is the devDependency pin in package.json. A version not listed is read with the newest
// entry's texts, and its rows say unverified.
import type { VerifiedStrings } from '../../verifiedVersions.js';
import { stringsFor, newestVerified } from '../../verifiedVersions.js';
import type { CopilotStrings } from './schema.js';
import { COPILOT_1_0_102 } from './v1_0_102.js';

export type { CopilotStrings } from './schema.js';

export const COPILOT_VERSIONS: readonly VerifiedStrings<CopilotStrings>[] = [
  { version: '1.0.102', strings: COPILOT_1_0_102, fixtures: 'test/fixtures/copilot/1.0.102' },
];

export const LATEST_COPILOT_STRINGS: CopilotStrings = newestVerified(COPILOT_VERSIONS).strings;

export function copilotStringsFor(version: string | undefined): CopilotStrings {
  return stringsFor(COPILOT_VERSIONS, version);
}

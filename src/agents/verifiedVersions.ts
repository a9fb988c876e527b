// The versions of an agent rec was verified on, as one list per agent (its strings/index.ts, named by
// its module.ts). Every question about a version reads that list: the live recorder's
// agent_version_verified, the warning after the agent exits, merge's unknown_version diagnostic, the
// screen texts a version is read with, the e2e suites' pinned version, the recorded fixtures the tests
// replay, and the README's version table. Dependency-free data: module.ts rows load it.

/** One version rec was verified on by running it (the real-CLI e2e suite and the recorded fixtures). */
export interface VerifiedVersion {
  readonly version: string;
  /**
   * Its recordings, relative to the repository root: `test/fixtures/<agent>/<version>`, with
   * `recorded/` (and Claude's `recorded-inline/`) made by scripts/record-<agent>-fixtures.mjs.
   */
  readonly fixtures: string;
}

/** A verified version with the agent's screen and file texts for it (strings/v*.ts). */
export interface VerifiedStrings<S> extends VerifiedVersion {
  readonly strings: S;
}

export function isVerifiedVersion(versions: readonly VerifiedVersion[], version: string): boolean {
  return versions.some((v) => v.version === version);
}

/** The newest verified version: the list is kept oldest first, and its last entry is the devDependency pin. */
export function newestVerified<V extends VerifiedVersion>(versions: readonly V[]): V {
  const newest = versions[versions.length - 1];
  if (newest === undefined) throw new Error('an agent needs at least one verified version');
  return newest;
}

/**
 * The texts to read a version with: its own when it was verified, else the newest verified version's.
 * An unverified version (usually a newer release) is still read, not refused: agents change their
 * wording rarely, and a near miss records more than nothing; its rows say it was unverified.
 */
export function stringsFor<S>(versions: readonly VerifiedStrings<S>[], version: string | null | undefined): S {
  return versions.find((v) => v.version === version)?.strings ?? newestVerified(versions).strings;
}

/** Who counts a version as verified: rec itself (the list it ships), or a `rec doctor` run on this machine. */
type VerifiedBy = 'rec' | 'doctor';

/**
 * Whether rec counts `version` as verified, and by whom: a version it ships verified, else one whose
 * latest doctor run in this database passed (`doctored`, store/doctorRuns.ts). The one rule for the
 * live recorder's agent_version_verified and merge's unknown_version diagnostic.
 */
export function versionVerifiedBy(versions: readonly VerifiedVersion[], doctored: readonly string[], version: string): VerifiedBy | null {
  if (isVerifiedVersion(versions, version)) return 'rec';
  return doctored.includes(version) ? 'doctor' : null;
}

/** What merge says of a version only `rec doctor` verified (an `info` diagnostic: it is verified). */
export function doctoredVersionText(agent: string, version: string, versions: readonly VerifiedVersion[]): string {
  return `${agent} ${version} is verified by rec doctor in this database (verified_by doctor), beside the versions rec ships verified (${versions.map((v) => v.version).join(', ')})`;
}

/** What the recorder and merge both say about a version not in the list (the start of the sentence). */
export function unverifiedVersionText(agent: string, version: string, versions: readonly VerifiedVersion[]): string {
  return `${agent} ${version} is not a version rec was verified on (${versions.map((v) => v.version).join(', ')})`;
}

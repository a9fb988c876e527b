// The one rule for checked-in files a test could write (goldens, docs/report.png): a test run
// leaves the repository as it found it, and only UPDATE_GOLDEN=1 asks it to rewrite them.
import { basename, join } from 'node:path';

/** Whether this run was asked to rewrite checked-in goldens: UPDATE_GOLDEN=1, nothing else. */
export function updatingGoldens(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['UPDATE_GOLDEN'] === '1';
}

/**
 * Where a test writes an artefact that is also checked in but cannot be compared byte for byte (a
 * screenshot): the checked-in path when asked (UPDATE_GOLDEN=1), else a file of the same name in the
 * test's scratch folder, so the test still makes it and checks it.
 */
export function artefactPath(checkedIn: string, scratchDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return updatingGoldens(env) ? checkedIn : join(scratchDir, basename(checkedIn));
}

// A test run writes no checked-in file unless UPDATE_GOLDEN=1 asks it to (test/support/golden.ts).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artefactPath, updatingGoldens } from '../../support/golden.js';

const CHECKED_IN = join('/repo', 'docs', 'report.png');
const SCRATCH = join('/tmp', 'rec-report-x');

describe('golden writes', () => {
  it('only UPDATE_GOLDEN=1 asks for checked-in files to be rewritten', () => {
    expect(updatingGoldens({ UPDATE_GOLDEN: '1' })).toBe(true);
    for (const value of [undefined, '', '0', 'true', 'yes', ' 1']) expect(updatingGoldens({ UPDATE_GOLDEN: value }), String(value)).toBe(false);
    expect(updatingGoldens({})).toBe(false);
  });

  it('an artefact goes to the scratch folder unless asked, and to the checked-in path when asked', () => {
    expect(artefactPath(CHECKED_IN, SCRATCH, {})).toBe(join(SCRATCH, 'report.png'));
    expect(artefactPath(CHECKED_IN, SCRATCH, { UPDATE_GOLDEN: '0' })).toBe(join(SCRATCH, 'report.png'));
    expect(artefactPath(CHECKED_IN, SCRATCH, { UPDATE_GOLDEN: '1' })).toBe(CHECKED_IN);
  });
});

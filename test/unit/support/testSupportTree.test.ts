// One tree of test support: a module that tests share lives in test/support/ (the shared base at its
// top, one kit per agent below), and every other folder under test/ holds tests, fakes or fixtures.
// A helper left beside the tests that import it is how three support trees grew before.
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/agentVersions.js';
import { repoFiles } from '../../support/repoFiles.js';

/** Folders under test/ whose files are programs or data the tests run or read, not tests. */
const NOT_TESTS = ['test/support/', 'test/fakes/', 'test/fixtures/'];

/** The test-support modules outside test/support/: TypeScript under test/ that is no test and no type declaration. */
function strayModules(trackedFiles: readonly string[]): string[] {
  return trackedFiles.filter(
    (file) =>
      file.startsWith('test/') &&
      /\.m?ts$/.test(file) &&
      !/\.test\.m?ts$/.test(file) &&
      !/\.d\.m?ts$/.test(file) &&
      !NOT_TESTS.some((folder) => file.startsWith(folder)),
  );
}

describe('test support tree', () => {
  it('has every shared test module under test/support/', () => {
    const tracked = repoFiles(REPO_ROOT);
    expect(strayModules(tracked)).toEqual([]);
  });

  it('tells a helper beside the tests from a test, a declaration and a support module', () => {
    expect(
      strayModules([
        'test/unit/store/tempDir.ts',
        'test/helpers/rec.ts',
        'test/kits/shared/recBin.ts',
        'test/unit/store/sidecarDb.test.ts',
        'test/fakes/fake-modes.d.mts',
        'test/support/rec.ts',
        'test/support/codex/env.ts',
        'test/fixtures/fifth-agent/module.ts',
        'src/lab/spawn.ts',
      ]),
    ).toEqual(['test/unit/store/tempDir.ts', 'test/helpers/rec.ts', 'test/kits/shared/recBin.ts']);
  });
});

// The layer check (scripts/check-layers, run by scripts/test) fails on an import that points up:
// one of each kind is planted in a scratch copy of src/, and the check must name exactly those on
// top of what it says about the unchanged copy.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** Two runs of dependency-cruiser over all of src/ on two loaded cores. */
const CHECK_TIMEOUT_MS = 120_000;

const PLANTED: ReadonlyArray<{ rule: string; file: string; text: string }> = [
  { rule: 'core-is-pure', file: 'core/plantedIo.ts', text: "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n" },
  { rule: 'agents-point-down', file: 'agents/plantedRegistry.ts', text: "export type { RunArgs } from '../commands/runArgs.js';\n" },
  { rule: 'agents-do-not-import-each-other', file: 'agents/gemini/plantedCopy.ts', text: "export { prepareCodexLaunch } from '../codex/launch.js';\n" },
  { rule: 'only-commands-import-lab', file: 'agents/codex/plantedLab.ts', text: "export { KEYS } from '../../lab/keys.js';\n" },
  // A row that loads its bench with it: every rec hook would load the lab's packages.
  { rule: 'a-row-never-imports-its-bench-statically', file: 'agents/gemini/module.ts', text: "export { geminiBench } from './bench/bench.js';\n" },
  { rule: 'readers-do-not-import-merge', file: 'readers/plantedJoin.ts', text: "export { joinSession } from '../merge/joinSession.js';\n" },
  { rule: 'merge-imports-neither-stats-nor-commands', file: 'merge/plantedStats.ts', text: "export { aggregateStats } from '../stats/aggregateStats.js';\n" },
  { rule: 'rules-below-commands', file: 'rules/plantedCommand.ts', text: "export { rulesCommand } from '../commands/rules.js';\n" },
  { rule: 'stats-does-not-import-rules', file: 'stats/plantedRules.ts', text: "export { RulesAggregator } from '../rules/suggestRules.js';\n" },
  { rule: 'report-below-commands', file: 'report/plantedCli.ts', text: "export { formatDiagnostic } from '../commands/selectionRun.js';\n" },
  { rule: 'sqlite-only-in-store', file: 'merge/plantedSql.ts', text: "import Database from 'better-sqlite3';\nexport const open = (p: string) => new Database(p);\n" },
  { rule: 'no-circular', file: 'core/plantedA.ts', text: "import { b } from './plantedB.js';\nexport const a = () => b;\n" },
  { rule: 'no-circular', file: 'core/plantedB.ts', text: "import { a } from './plantedA.js';\nexport const b = () => a;\n" },
];

const scratch = mkdtempSync(join(tmpdir(), 'rec-layers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function copyOfRepo(name: string): string {
  const root = join(scratch, name);
  mkdirSync(root);
  cpSync(join(REPO, 'src'), join(root, 'src'), { recursive: true });
  for (const f of ['tsconfig.json', '.dependency-cruiser.cjs']) cpSync(join(REPO, f), join(root, f));
  mkdirSync(join(root, 'scripts'));
  cpSync(join(REPO, 'scripts', 'check-layers'), join(root, 'scripts', 'check-layers'));
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  return root;
}

/** Runs the check; returns its exit code and the violations it names (`rule: from → to`). */
function check(root: string): Promise<{ code: number; violations: Set<string> }> {
  return new Promise((done) => {
    execFile(join(root, 'scripts', 'check-layers'), { cwd: root }, (err, stdout) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      const violations = new Set([...stdout.matchAll(/error (\S+): (\S+)/g)].map((m) => `${m[1]}: ${m[2]}`));
      done({ code, violations });
    });
  });
}

describe('scripts/check-layers (dependency-cruiser, run by scripts/test)', () => {
  it('fails and names each planted import that points up, beyond what it says of the same tree unchanged', async () => {
    const clean = copyOfRepo('clean');
    const planted = copyOfRepo('planted');
    for (const p of PLANTED) writeFileSync(join(planted, 'src', p.file), p.text);
    const [before, after] = await Promise.all([check(clean), check(planted)]);
    expect(after.code).not.toBe(0);
    const added = [...after.violations].filter((v) => !before.violations.has(v)).sort();
    const expected = [...new Set(PLANTED.filter((p) => p.file !== 'core/plantedB.ts').map((p) => `${p.rule}: src/${p.file}`))].sort();
    expect(added).toEqual(expected);
  }, CHECK_TIMEOUT_MS);
});

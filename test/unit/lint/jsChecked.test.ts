// The JavaScript nothing compiles (the bin, the tools' configuration, the scripts, the fakes and
// the programs the tests start) is held to the house rules like the TypeScript: every tracked file
// says `// @ts-check` for the editor, scripts/lint's tsc runs check its types (tsconfig.js.json, or
// tsconfig.page.json for the report page), and ESLint lints it with the house rules. A new file
// that no glob covers fails here rather than going unchecked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoFiles } from '../../support/repoFiles.js';

const ROOT = join(import.meta.dirname, '../../..');

/** Files that cannot carry the pragma, and why; tsc still checks them (checkJs, asserted below). */
const NO_PRAGMA: ReadonlyMap<string, string> = new Map([
  // TypeScript reads `// @ts-check` only before the first statement, and there the file is shell
  // too: a line JavaScript skips would be a command /bin/sh forks on every run of rec.
  ['bin/rec.js', 'a /bin/sh and JavaScript polyglot'],
]);

/** Rules only the house blocks of eslint.config.mjs turn on; ESLint's defaults lint a .js file without them. */
const HOUSE_RULES = ['@typescript-eslint/naming-convention', '@typescript-eslint/no-floating-promises', 'no-undef'];

/** Tracked JavaScript, but not the recordings under test/fixtures (its programs are .mjs, as eslint.config.mjs says). */
const files = repoFiles(ROOT).filter((file) => /\.(?:js|mjs|cjs)$/.test(file) && !/^test\/fixtures\/.*\.c?js$/.test(file));

/** The files a tsconfig's include and exclude select, expanded by TypeScript itself (which skips dotfiles a `*` would match). */
function checkedBy(tsconfig: string): { files: Set<string>; checkJs: boolean } {
  const { config, error } = ts.readConfigFile(join(ROOT, tsconfig), ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  return { files: new Set(parsed.fileNames.map((f) => f.slice(ROOT.length + 1))), checkJs: parsed.options.checkJs === true };
}

describe('tracked JavaScript is under // @ts-check, tsc and ESLint', () => {
  it('finds the files', () => {
    expect(files).toContain('bin/rec.js');
    expect(files).toContain('assets/report/page.js');
    for (const file of NO_PRAGMA.keys()) expect(files, `${file} is exempted from the pragma but not tracked`).toContain(file);
  });

  it('every file starts with // @ts-check, after its shebang line if it has one', () => {
    const missing = files.filter((file) => {
      if (NO_PRAGMA.has(file)) return false;
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      return lines[lines[0]!.startsWith('#!') ? 1 : 0] !== '// @ts-check';
    });
    expect(missing).toEqual([]);
  });

  it("every file is in tsconfig.js.json's or tsconfig.page.json's include, and both check JavaScript", () => {
    const node = checkedBy('tsconfig.js.json');
    const page = checkedBy('tsconfig.page.json');
    expect([node.checkJs, page.checkJs]).toEqual([true, true]);
    expect(files.filter((file) => !node.files.has(file) && !page.files.has(file))).toEqual([]);
  });

  it("every file is linted by eslint.config.mjs's house rules, not ignored", async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const unlinted: string[] = [];
    for (const file of files) {
      const config = (await eslint.isPathIgnored(file)) ? undefined : await eslint.calculateConfigForFile(file);
      const rules: Record<string, unknown[] | undefined> = config?.rules ?? {};
      if (!HOUSE_RULES.every((rule) => rules[rule]?.[0] === 2)) unlinted.push(file);
    }
    expect(unlinted).toEqual([]);
  });
});

// docs/environment.md lists every REC_* variable rec and its scripts read or set. This holds the table
// and the code together: a name the code uses that the table lacks, or a row for a name nothing uses
// any more, fails. Comments do not count (the scanner skips them), nor do constants that merely
// start with REC_ (a `const REC_JS = …` in a script is a binding, not a variable). The per-agent
// binary variables are taken from the registry, not written here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { AGENT_MODULES } from '../../../src/agents/registry.js';

const ROOT = join(import.meta.dirname, '../../..');
const NAME = /REC_[A-Z0-9_]+/g;

/** REC_* names in a JS/TS file's code: identifiers, strings and template parts, never comments; names bound by `const|let|var` are left out. */
function recNamesInScript(text: string): Set<string> {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, /* skipTrivia */ true, ts.LanguageVariant.Standard, text);
  const found = new Set<string>();
  const bound = new Set<string>();
  // What each open `{` or `${` was, so that the `}` closing a template substitution is rescanned as
  // the template's next piece of text.
  const braces: ('block' | 'template')[] = [];
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.OpenBraceToken) braces.push('block');
    if (kind === ts.SyntaxKind.CloseBraceToken && braces.pop() === 'template') kind = scanner.reScanTemplateToken(false);
    if (kind === ts.SyntaxKind.TemplateHead || kind === ts.SyntaxKind.TemplateMiddle) braces.push('template');
    // A `/` where an expression starts is a regular expression, not a division.
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && startsExpression(previous)) kind = scanner.reScanSlashToken();
    const piece = kind === ts.SyntaxKind.Identifier ? scanner.getTokenText() : isTextToken(kind) ? scanner.getTokenValue() : '';
    for (const m of piece.matchAll(NAME)) {
      if (kind === ts.SyntaxKind.Identifier && isBindingKeyword(previous)) bound.add(m[0]);
      else found.add(m[0]);
    }
    previous = kind;
  }
  for (const name of bound) found.delete(name);
  return found;
}

function isTextToken(kind: ts.SyntaxKind): boolean {
  return (
    kind === ts.SyntaxKind.StringLiteral ||
    kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
    kind === ts.SyntaxKind.TemplateHead ||
    kind === ts.SyntaxKind.TemplateMiddle ||
    kind === ts.SyntaxKind.TemplateTail
  );
}

function startsExpression(previous: ts.SyntaxKind): boolean {
  return (
    previous === ts.SyntaxKind.EqualsToken ||
    previous === ts.SyntaxKind.OpenParenToken ||
    previous === ts.SyntaxKind.CommaToken ||
    previous === ts.SyntaxKind.ColonToken ||
    previous === ts.SyntaxKind.OpenBracketToken ||
    previous === ts.SyntaxKind.ExclamationToken ||
    previous === ts.SyntaxKind.AmpersandAmpersandToken ||
    previous === ts.SyntaxKind.BarBarToken ||
    previous === ts.SyntaxKind.QuestionQuestionToken ||
    previous === ts.SyntaxKind.ReturnKeyword ||
    previous === ts.SyntaxKind.Unknown
  );
}

function isBindingKeyword(kind: ts.SyntaxKind): boolean {
  return kind === ts.SyntaxKind.ConstKeyword || kind === ts.SyntaxKind.LetKeyword || kind === ts.SyntaxKind.VarKeyword;
}

/** REC_* names a shell script expands or assigns, outside `#` comments. */
function recNamesInShell(text: string): Set<string> {
  const found = new Set<string>();
  for (const line of text.split('\n')) {
    const code = line.replace(/(^|\s)#.*$/, '');
    for (const m of code.matchAll(/\$\{?(REC_[A-Z0-9_]+)|\b(REC_[A-Z0-9_]+)=/g)) found.add((m[1] ?? m[2])!);
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every REC_* name the code of src/, bin/ and scripts/ uses, with the files that use it. */
function namesInCode(): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const file of ['src', 'bin', 'scripts'].flatMap((d) => filesUnder(join(ROOT, d)))) {
    const text = readFileSync(file, 'utf8');
    const ext = extname(file);
    const isScript = ['.ts', '.js', '.mjs', '.cjs'].includes(ext);
    const isShell = ext === '' && /^#!\/(bin\/|usr\/bin\/env )(ba)?sh\b/.test(text);
    if (!isScript && !isShell) continue;
    // bin/rec.js is shell and JavaScript at once; its shell lines are JavaScript strings and comments.
    const found = isScript ? recNamesInScript(text) : recNamesInShell(text);
    if (file.endsWith('bin/rec.js')) for (const n of recNamesInShell(text)) found.add(n);
    for (const n of found) names.set(n, [...(names.get(n) ?? []), relative(ROOT, file)]);
  }
  return names;
}

/** The names in the first column of the table under `## Variables` in docs/environment.md. */
function namesInTable(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/environment.md'), 'utf8');
  const start = doc.indexOf('## Variables');
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| `(REC_[A-Z0-9_]+)` \|/gm)].map((m) => m[1]!);
}

const BIN_VARS = Object.values(AGENT_MODULES).map((m) => m.binEnvVar);

describe('docs/environment.md lists every REC_* variable', () => {
  const table = namesInTable();
  const code = namesInCode();

  it('the scanner finds reads and skips comments and REC_-named constants', () => {
    const script = [
      '// REC_IN_A_COMMENT=1',
      '/* REC_IN_A_BLOCK */',
      'const REC_CONSTANT = 1;',
      'const a = process.env.REC_READ;',
      "const b = env['REC_INDEXED'];",
      'const c = `${x} REC_IN_A_TEMPLATE ${y}`;',
      "const d = /rec: REC_IN_A_REGEX '/g; if (x) { f(); } const e = env.REC_AFTER_A_BLOCK;",
    ].join('\n');
    expect([...recNamesInScript(script)].sort()).toEqual(['REC_AFTER_A_BLOCK', 'REC_INDEXED', 'REC_IN_A_TEMPLATE', 'REC_READ']);
    const shell = ['# REC_IN_A_COMMENT', 'x=${REC_EXPANDED:-rec}', 'REC_ASSIGNED=1 exec y', 'echo "$REC_PLAIN"'].join('\n');
    expect([...recNamesInShell(shell)].sort()).toEqual(['REC_ASSIGNED', 'REC_EXPANDED', 'REC_PLAIN']);
  });

  it('the table has one row per name, and finds the rows', () => {
    expect(table.length).toBeGreaterThan(10);
    expect(new Set(table).size).toBe(table.length);
  });

  it('every agent binary variable in the registry has a row', () => {
    expect(BIN_VARS.length).toBe(Object.keys(AGENT_MODULES).length);
    for (const name of BIN_VARS) expect(table, `${name} (binEnvVar in the registry)`).toContain(name);
  });

  it('every REC_* name the code uses has a row', () => {
    const missing = [...code.keys()].filter((n) => !table.includes(n)).map((n) => `${n} (${code.get(n)!.join(', ')})`);
    expect(missing, 'add these to docs/environment.md').toEqual([]);
  });

  it('every row names a variable the code still uses', () => {
    const stale = table.filter((n) => !code.has(n) && !BIN_VARS.includes(n));
    expect(stale, 'nothing reads these any more: remove them from docs/environment.md').toEqual([]);
  });
});

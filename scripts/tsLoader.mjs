// @ts-check
// Lets plain `node` run the project's TypeScript test helpers (Node 20 has no type stripping):
// .ts files are transpiled on load with the project's own typescript, and `./x.js` imports
// resolve to `./x.ts` when only the .ts exists. Used by scripts/record-codex-fixtures.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export async function resolve(specifier, context, next) {
  if (specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const url = new URL(specifier, context.parentURL);
    if (url.protocol === 'file:' && !existsSync(fileURLToPath(url))) {
      const tsUrl = url.href.replace(/\.js$/, '.ts');
      if (existsSync(fileURLToPath(tsUrl))) return { url: tsUrl, shortCircuit: true };
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const source = readFileSync(fileURLToPath(url), 'utf8');
  const out = ts.transpileModule(source, {
    fileName: fileURLToPath(url),
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  });
  return { format: 'module', source: out.outputText, shortCircuit: true };
}

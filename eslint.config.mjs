// @ts-check
// The house style that a tool can keep: naming, commented empty blocks, no forgotten promises,
// short functions. Run by scripts/test before vitest, and by `npm run lint`;
// any finding fails the suite. Only these rules run, on purpose: each one states a rule of the
// house, and none of them is a matter of taste a formatter would settle.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * Names as the style guide states them (xterm.js / VS Code's lint-enforced naming).
 * @type {import('eslint').Linter.RuleSeverityAndOptions}
 */
const namingConvention = [
  'error',
  // Functions and variables are camelCase; a module-level constant may be UPPER_CASE
  // (DEFAULT_FORCE_KILL_TIMEOUT), and a const may be PascalCase when it stands for a type (a zod
  // schema `const HookMessage = z.object(…)` shares its name with its inferred type).
  { selector: 'default', format: ['camelCase'], leadingUnderscore: 'forbid', trailingUnderscore: 'forbid' },
  { selector: 'variable', modifiers: ['const'], format: ['camelCase', 'UPPER_CASE', 'PascalCase'] },
  { selector: 'function', format: ['camelCase'] },
  // An unused parameter or variable is named `_` or `_name`, as TypeScript itself understands it
  // (`const { run_id: _run, ...fields } = event` drops a field).
  { selector: 'parameter', format: ['camelCase'], leadingUnderscore: 'allow' },
  { selector: 'variable', modifiers: ['unused'], format: ['camelCase', 'UPPER_CASE', 'PascalCase'], leadingUnderscore: 'allow' },
  { selector: 'typeLike', format: ['PascalCase'] },
  { selector: 'enumMember', format: ['PascalCase', 'UPPER_CASE'] },
  // Private members carry a leading underscore (xterm.js: `_private` members, lint-enforced).
  { selector: 'memberLike', modifiers: ['private'], format: ['camelCase'], leadingUnderscore: 'require' },
  { selector: 'classProperty', modifiers: ['static', 'readonly'], format: ['camelCase', 'UPPER_CASE'] },
  // An override takes its name from the base class (Node's Writable: `_write`, `_final`).
  { selector: 'classMethod', modifiers: ['override'], format: null },
  // Object keys, properties of types and imports mirror what others define: JSON from the agents'
  // session files and hooks (tool_use_id, hook_event_name), SQLite columns (call_id), environment
  // variables (REC_HOOK_URL), HTTP headers. Their spelling is not ours to choose.
  { selector: ['objectLiteralProperty', 'typeProperty', 'objectLiteralMethod', 'typeMethod'], format: null },
  { selector: 'import', format: null },
  // `{ tool_use_id: callId } = payload` renames at the boundary; the destructured name is still
  // the foreign one when it is not renamed.
  { selector: ['variable', 'parameter'], modifiers: ['destructured'], format: null },
];

/**
 * The JavaScript that runs on Node as it is: the bin, this file, the scripts run by hand or by
 * scripts/, and the programs the tests start (fakes, children, pty programs). Kept equal to
 * tsconfig.js.json's include; test/unit/lint/jsChecked.test.ts holds every tracked file to both.
 */
const JS_NODE = ['bin/*.js', '*.mjs', 'scripts/**/*.mjs', 'test/**/*.mjs'];
/** The same, as CommonJS: configuration read by tools that `require` it (dependency-cruiser). */
const JS_NODE_CJS = ['*.cjs'];
/** The JavaScript that runs in the browser: the report page's script. */
const JS_BROWSER = ['assets/report/page.js'];

// The globals each platform gives beyond the language's own (which ecmaVersion brings), listed
// here rather than taken from the `globals` package, which is not a dependency: only what is used.
const NODE_GLOBALS = Object.fromEntries(
  ['process', 'Buffer', 'console', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'AbortController', 'AbortSignal', 'performance', 'structuredClone', 'fetch', 'crypto'].map((name) => [name, 'readonly']),
);
const BROWSER_GLOBALS = Object.fromEntries(
  ['window', 'document', 'console', 'setTimeout', 'clearTimeout', 'requestAnimationFrame', 'Intl', 'Chart'].map((name) => [name, 'readonly']),
);

export default defineConfig(
  {
    // test/fixtures holds recordings, except the fifth agent's fake (a program, linted below).
    ignores: ['dist/**', 'node_modules/**', 'test/fixtures/**/*', '!test/fixtures/**/', '!test/fixtures/**/*.mjs', 'bench-results/**', 'tmp/**'],
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    plugins: { '@typescript-eslint': tseslint.plugin },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // One program per tsconfig (tsconfig.test.json covers src/ and test/), so type-aware
        // rules see the same types tsc checks.
        project: ['./tsconfig.test.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    // A disable comment for a rule that does not run is noise. no-control-regex is not run: this
    // is a terminal recorder, and a control character in a pattern (ESC, Ctrl+C) is the point.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/naming-convention': namingConvention,
      // An empty block is allowed only with a comment saying why (ESLint counts a comment inside
      // the block as content); a swallowed error is no exception.
      'no-empty': ['error', { allowEmptyCatch: false }],
      // A promise nobody awaits loses its rejection. Mark a deliberate fire-and-forget with `void`.
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // The JavaScript nothing compiles: the bin, the configuration, the scripts and the programs
    // the tests start run on Node, the report page's script in the browser. The same house rules, on the types tsc checks from their JSDoc
    // (tsconfig.js.json, tsconfig.page.json); no-undef holds them to their platform's globals.
    files: [...JS_NODE, ...JS_NODE_CJS, ...JS_BROWSER],
    plugins: { '@typescript-eslint': tseslint.plugin },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: ['./tsconfig.js.json', './tsconfig.page.json'], tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // JavaScript has no `private` (and these files predate `#`): a member's leading underscore
      // is how they mark it private, so it is allowed on any member here.
      '@typescript-eslint/naming-convention': [...namingConvention, { selector: 'memberLike', format: ['camelCase'], leadingUnderscore: 'allow' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
      '@typescript-eslint/no-floating-promises': 'error',
      'no-undef': 'error',
    },
  },
  { files: JS_NODE, languageOptions: { sourceType: 'module', globals: NODE_GLOBALS } },
  // sourceType commonjs brings require, module and exports.
  { files: JS_NODE_CJS, languageOptions: { sourceType: 'commonjs', globals: NODE_GLOBALS } },
  {
    files: JS_BROWSER,
    languageOptions: { sourceType: 'script', globals: BROWSER_GLOBALS },
    rules: {
      // The page is written with `var` throughout; its constants are the UPPER_CASE ones.
      '@typescript-eslint/naming-convention': [
        ...namingConvention,
        { selector: 'memberLike', format: ['camelCase'], leadingUnderscore: 'allow' },
        { selector: 'variable', format: ['camelCase', 'UPPER_CASE'] },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // A function longer than a screen does several things; split it by what it does.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      // A module is read in one sitting: past 400 lines it holds more than one thing.
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
);

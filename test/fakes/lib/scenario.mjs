// @ts-check
// Scenario selection shared by the fakes: `--scenario NAME|FILE.json` on the command line, else
// FAKE_SCENARIO (a built-in name or a JSON file path). The JSON is validated with the agent's zod
// schema; `{cwd}` in any string becomes the working directory, so scenarios can name files in it.
import { readFileSync } from 'node:fs';

/**
 * Splits argv into the scenario flag, the agent's own flags (ignored, as a fake has no use for
 * them) and positional words (an initial prompt, as the real CLIs take one).
 * `valueFlags` lists the agent's flags that take a separate value.
 */
export function parseArgs(argv, valueFlags = []) {
  let scenario;
  const flags = {};
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--scenario') {
      scenario = argv[++i];
    } else if (a.startsWith('--scenario=')) {
      scenario = a.slice('--scenario='.length);
    } else if (a.startsWith('-') && a.length > 1) {
      const eq = a.indexOf('=');
      if (eq > 0) flags[a.slice(0, eq)] = a.slice(eq + 1);
      else if (valueFlags.includes(a)) flags[a] = argv[++i];
      else flags[a] = true;
    } else {
      positional.push(a);
    }
  }
  return { scenario, flags, positional };
}

function substituteCwd(value, cwd) {
  if (typeof value === 'string') return value.replaceAll('{cwd}', cwd);
  if (Array.isArray(value)) return value.map((v) => substituteCwd(v, cwd));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteCwd(v, cwd)]));
  }
  return value;
}

/**
 * Resolves the scenario: a name from `builtins` or a path to a JSON file, validated by `schema`
 * (a zod schema). Returns `{ ok: true, scenario }` or `{ ok: false, error }` (an expected failure:
 * a bad name or file is the test author's mistake, reported on stderr with exit 2).
 */
export function loadScenario({ arg, env = process.env, builtins, schema, cwd = process.cwd(), defaultName }) {
  const ref = arg ?? env.FAKE_SCENARIO ?? defaultName;
  let raw;
  if (ref in builtins) {
    raw = builtins[ref];
  } else if (/\.json$/.test(ref) || ref.includes('/')) {
    try {
      raw = JSON.parse(readFileSync(ref, 'utf8'));
    } catch (err) {
      return { ok: false, error: `cannot read scenario file ${ref}: ${/** @type {Error} */ (err).message}` };
    }
  } else {
    return { ok: false, error: `unknown scenario "${ref}" (built-ins: ${Object.keys(builtins).join(', ')})` };
  }
  const parsed = schema.safeParse(substituteCwd(raw, cwd));
  if (!parsed.success) return { ok: false, error: `invalid scenario ${ref}: ${parsed.error.message}` };
  return { ok: true, scenario: parsed.data, name: ref };
}

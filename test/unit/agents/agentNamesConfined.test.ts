// An agent is named only in its own module (src/agents/<name>/, its bench included) and the registry:
// everything else, rec doctor and rec demo too, asks the registry. Comments may name agents (they
// explain); code may not, not even inside an identifier (`createCodexEnv`) or a string, and no file
// or folder outside those is named after one. There are no exceptions: a wire API is named after its
// vendor (googleGenerateContent), and what an agent's client asks for comes from its own module.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../../src/agents/registry.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

/**
 * Agents being built, not yet in the registry (issue 33: GitHub Copilot CLI, docs/copilot.md): their
 * folder holds what is built so far (the bench, readers) but no module.ts, so no command offers them
 * half-made; their names are confined like a registered agent's.
 */
const BEING_BUILT: readonly string[] = [];
const CONFINED = [...AGENT_NAMES, ...BEING_BUILT];

const ALLOWED: readonly RegExp[] = [...CONFINED.map((a) => new RegExp(`^agents/${a}/`)), /^agents\/registry\.ts$/];
/** An agent's name anywhere, in any case: inside identifiers, strings and paths too. */
const NAMED = new RegExp(`(${CONFINED.join('|')})`, 'i');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** The code of a file with its comments blanked (line comments, block comments). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The names in `text` that hold an agent's name: whole identifiers, so a failure says which. */
function namesIn(text: string): string[] {
  return [...new Set(text.match(new RegExp(`[\\w$.-]*(${CONFINED.join('|')})[\\w$.-]*`, 'gi')) ?? [])];
}

describe('agent names stay in their modules', () => {
  const outside = files(SRC)
    .map((f) => relative(SRC, f))
    .filter((f) => !ALLOWED.some((re) => re.test(f)));

  it('no code outside src/agents/<name>/ and the registry names an agent, in an identifier or a string either', () => {
    const offenders = outside.flatMap((f) => {
      const names = namesIn(code(readFileSync(join(SRC, f), 'utf8')));
      return names.length > 0 ? [`${f}: ${names.join(' ')}`] : [];
    });
    expect(offenders).toEqual([]);
  });

  it('no file or folder outside them is named after an agent', () => {
    expect(outside.filter((f) => NAMED.test(f))).toEqual([]);
  });

  it('the guard sees a name inside an identifier, a string and a path', () => {
    const [agent] = AGENT_NAMES;
    const upper = agent!.toUpperCase();
    expect(namesIn(`const x = create${agent![0]!.toUpperCase()}${agent!.slice(1)}Env(${upper}_SCENARIOS, '${agent}-model');`)).toHaveLength(3);
    expect(namesIn(code(`// ${agent} explains\n/* ${agent} */ const y = 1;`))).toEqual([]);
    expect(NAMED.test(`lab/mock/${agent}Api/server.ts`)).toBe(true);
  });
});

describe('the registry is the list of agents', () => {
  it('has one folder under src/agents/ per row, and no other agent folder', () => {
    const shared = new Set(['common']);
    const measuring = new Set(BEING_BUILT);
    for (const name of measuring) expect(readdirSync(join(SRC, 'agents', name))).not.toContain('module.ts');
    const folders = readdirSync(join(SRC, 'agents'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !shared.has(e.name) && !measuring.has(e.name))
      .map((e) => e.name);
    expect(folders.sort()).toEqual([...AGENT_NAMES].sort());
  });
});

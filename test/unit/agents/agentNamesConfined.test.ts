// An agent is named only in its own module (src/agents/<name>/, its bench included) and the registry:
// everything else, rec doctor and rec demo too, asks the registry. Comments may name agents (they
// explain); code may not.
// The files listed in KNOWN_EXCEPTIONS still do, each for the reason given.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../../src/agents/registry.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

const ALLOWED: readonly RegExp[] = [...AGENT_NAMES.map((a) => new RegExp(`^agents/${a}/`)), /^agents\/registry\.ts$/];
const KNOWN_EXCEPTIONS: Readonly<Record<string, string>> = {
  // The Gemini API's own model names say gemini: the mock lists one, as the real API does.
  'lab/mock/geminiGenerateContent/reply.ts': "the model name the mock of the Gemini API answers as",
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** The code of a file with its comments blanked (line comments, block comments). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

describe('agent names stay in their modules', () => {
  it('no code outside src/agents/<name>/, the registry names an agent', () => {
    const pattern = new RegExp(`\\b(${AGENT_NAMES.join('|')})\\b`, 'i');
    const offenders = files(SRC)
      .map((f) => relative(SRC, f))
      .filter((f) => !ALLOWED.some((re) => re.test(f)) && !(f in KNOWN_EXCEPTIONS))
      .filter((f) => pattern.test(code(readFileSync(join(SRC, f), 'utf8'))));
    expect(offenders).toEqual([]);
  });

  it('each known exception still names an agent (else it comes off the list)', () => {
    const pattern = new RegExp(`\\b(${AGENT_NAMES.join('|')})\\b`, 'i');
    const stale = Object.keys(KNOWN_EXCEPTIONS).filter((f) => !pattern.test(code(readFileSync(join(SRC, f), 'utf8'))));
    expect(stale).toEqual([]);
  });
});

describe('the registry is the list of agents', () => {
  it('has one folder under src/agents/ per row, and no other agent folder', () => {
    const shared = new Set(['common']);
    const folders = readdirSync(join(SRC, 'agents'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !shared.has(e.name))
      .map((e) => e.name);
    expect(folders.sort()).toEqual([...AGENT_NAMES].sort());
  });
});

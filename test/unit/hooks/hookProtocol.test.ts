import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../../src/core/events.js';
import { MAX_HOOK_MESSAGE_BYTES } from '../../../src/core/hookMessage.js';
import { HOOK_MESSAGE_LIMIT_BYTES, HOOK_STDOUT, hookStdoutFor } from '../../../src/hooks/hookProtocol.js';

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

/** Value imports of a TypeScript module (type-only imports are erased and cost nothing at run time). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/^\s*import\s+(type\s+)?[^'";]*?\s*from\s*['"]([^'"]+)['"]/gm)) {
    if (!m[1]) specs.push(m[2]!);
  }
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) specs.push(m[1]!);
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]!);
  return specs;
}

/** Every module `rec hook` loads, starting from src/commands/hook.ts. */
function importGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of valueImports(file)) {
      if (spec.startsWith('.')) visit(join(dirname(file), spec).replace(/\.js$/, '.ts'));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files: [...files], packages: [...packages] };
}

describe('hook protocol', () => {
  it('the client-side size limit mirrors MAX_HOOK_MESSAGE_BYTES', () => {
    expect(HOOK_MESSAGE_LIMIT_BYTES).toBe(MAX_HOOK_MESSAGE_BYTES);
  });

  it('has a stdout answer for every agent name', () => {
    expect(Object.keys(HOOK_STDOUT).sort()).toEqual([...AGENT_NAMES].sort());
  });

  it('answers each agent as its hook protocol wants', () => {
    expect(hookStdoutFor('codex')).toBe('');
    expect(hookStdoutFor('claude')).toBe('');
    expect(JSON.parse(hookStdoutFor('gemini'))).toEqual({});
    expect(hookStdoutFor('nobody')).toBe('');
    expect(hookStdoutFor('toString')).toBe('');
    expect(hookStdoutFor(undefined)).toBe('');
  });

  it('`rec hook` loads only node built-ins: no zod, ws, sqlite, pty or xterm', () => {
    const { files, packages } = importGraph(join(srcDir, 'commands/hook.ts'));
    expect(files.length).toBeGreaterThan(1);
    expect(packages.filter((p) => !p.startsWith('node:'))).toEqual([]);
  });
});

// The real-CLI suites take the version under test from their kit (AGENT_VERSION: the pin, or the
// binary REC_E2E_<AGENT>_BIN names), so a file's opening comment that names a version goes stale at
// the next pin, as 0.169.0 and 2.1.330 did. Versions belong in test names built from AGENT_VERSION,
// and measurements of one version in docs/.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/agentVersions.js';

const E2E = join(REPO_ROOT, 'test', 'e2e');

/** The comment lines a file opens with. */
function header(text: string): string[] {
  const lines = text.split('\n');
  const end = lines.findIndex((line) => !line.startsWith('//'));
  return lines.slice(0, end === -1 ? lines.length : end);
}

describe('e2e file headers', () => {
  const files = readdirSync(E2E, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));

  it('finds the e2e files', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)('%s names no agent version in its opening comment', (file) => {
    const versions = header(readFileSync(join(E2E, file), 'utf8')).filter((line) => /(?<![\d.])\d+\.\d+\.\d+(?![\d.])/.test(line));
    expect(versions).toEqual([]);
  });

  it('tells a header that names a version', () => {
    expect(header('// on the REAL Codex 0.169.0\n// more\nimport x;').filter((l) => /(?<![\d.])\d+\.\d+\.\d+(?![\d.])/.test(l))).toHaveLength(1);
  });
});

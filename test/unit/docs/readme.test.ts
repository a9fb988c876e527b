// The README is for users: short enough to read, and its first lines give the two commands a fresh
// machine needs (set up and run the main job; run the whole test suite), the ones CI runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README.md', () => {
  it('is under 200 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThan(200);
  });

  it('opens with the set-up-and-run command and the whole-suite command', () => {
    const firstBlock = /^```sh\n([\s\S]*?)\n```/m.exec(readme.split('\n').slice(0, 8).join('\n'));
    expect(firstBlock, 'no sh block in the first lines').not.toBeNull();
    const commands = firstBlock![1]!.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim());
    expect(commands[0]).toMatch(/^npm ci && npx rec \w+/);
    expect(commands[1]).toBe('npm ci && npm test');
  });
});

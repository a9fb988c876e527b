// The lists of agents that live outside src/ (user docs, the benchmark corpus, fakes and fixtures)
// cannot be read from the registry, so they are held equal to it here: a new registry row without
// its README usage line, its docs page or its corpus generator fails this file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../../src/agents/registry.js';
import { REPO_ROOT } from '../../support/rec.js';
// @ts-expect-error: a plain .mjs script without types
import { CORPUS_AGENTS } from '../../../scripts/gen-corpus.mjs';

describe.each([...AGENT_NAMES])('registry agent %s', (agent) => {
  it('has a usage line `rec <agent>` in README.md', () => {
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toMatch(new RegExp(`\\brec ${agent}\\b`));
  });

  it('has its page docs/<agent>.md', () => {
    expect(existsSync(join(REPO_ROOT, 'docs', `${agent}.md`)), `docs/${agent}.md`).toBe(true);
  });

  it('has a fake CLI (test/fakes/fake-<agent>.mjs) and recorded fixtures (test/fixtures/<agent>/)', () => {
    expect(existsSync(join(REPO_ROOT, 'test', 'fakes', `fake-${agent}.mjs`))).toBe(true);
    expect(existsSync(join(REPO_ROOT, 'test', 'fixtures', agent))).toBe(true);
  });
});

describe('lists kept beside the registry', () => {
  it('scripts/gen-corpus.mjs generates sessions of exactly the registry agents', () => {
    expect(Object.keys(CORPUS_AGENTS as object).sort()).toEqual([...AGENT_NAMES].sort());
  });
});

// Which agent wrote a record: a `sure` claim comes from a field (or a combination) only that agent
// writes, and two rows equally sure of one record is an ambiguous answer, never the first row's.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentModule } from '../../../src/agents/agentModule.js';
import { AGENT_MODULES, AGENT_NAMES, agentModule, attributeRecord } from '../../../src/agents/registry.js';
import { readSessionFile } from '../../../src/merge/readSession.js';
import { REPO_ROOT } from '../../support/rec.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-attribution-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every JSON object on a line of a `.jsonl` under test/fixtures/<agent>/ (session files, hook logs, mock logs). */
function fixtureRecords(agent: string): Array<{ file: string; record: Record<string, unknown> }> {
  const out: Array<{ file: string; record: Record<string, unknown> }> = [];
  const walk = (d: string): void => {
    // An agent may have no logs folder (its recordings hold every file it writes).
    if (!existsSync(d)) return;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.jsonl')) {
        for (const line of readFileSync(p, 'utf8').split('\n')) {
          let v: unknown;
          try {
            v = JSON.parse(line);
          } catch {
            continue;
          }
          if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push({ file: p, record: v as Record<string, unknown> });
        }
      }
    }
  };
  walk(join(REPO_ROOT, 'test', 'fixtures', agent));
  walk(join(REPO_ROOT, 'test', 'fixtures', 'logs', agent));
  return out;
}

/** A registry row that claims records by a rule of the test's. */
function row(name: string, says: AgentModule['recordSaysAgent']): AgentModule {
  return { ...AGENT_MODULES[0]!, name, recordSaysAgent: says };
}

describe.each([...AGENT_NAMES])('records of %s', (agent) => {
  const records = fixtureRecords(agent);

  it('are never claimed by another agent, nor ambiguous', () => {
    expect(records.length).toBeGreaterThan(10);
    const wrong = records
      .map(({ file, record }) => ({ file, type: record['type'], said: attributeRecord(record) }))
      .filter((r) => r.said !== null && !('agent' in r.said && r.said.agent === agent));
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('include records the agent is sure of', () => {
    expect(records.some(({ record }) => agentModule(agent).recordSaysAgent(record) === 'sure')).toBe(true);
  });
});

describe('a sure claim needs a field only that agent writes', () => {
  it('a bare uuid, a bare payload or a bare id is nobody’s', () => {
    expect(attributeRecord({ uuid: 'a1', type: 'message', text: 'hi' })).toBeNull();
    expect(attributeRecord({ type: 'call', payload: 'not an object' })).toBeNull();
    expect(attributeRecord({ id: 'x', type: 'note' })).toBeNull();
  });

  it('a shape other formats share is likely at most', () => {
    const likely = [{ type: 'tool_call', payload: { id: 1 } }, { id: 'm1', type: 'user', content: 'hi' }, { type: 'mode', mode: 'normal', sessionId: 's' }];
    for (const record of likely) {
      expect(AGENT_MODULES.map((m) => m.recordSaysAgent(record)).filter((s) => s === 'sure')).toEqual([]);
    }
  });
});

describe('attributeRecord', () => {
  const sure = (key: string) => (r: Readonly<Record<string, unknown>>) => (key in r ? 'sure' : null);
  const likely = (key: string) => (r: Readonly<Record<string, unknown>>) => (key in r ? 'likely' : null);

  it('two rows sure of one record is ambiguous, in either order of the rows', () => {
    const a = row('alpha', sure('shared'));
    const b = row('beta', sure('shared'));
    expect(attributeRecord({ shared: 1 }, [a, b])).toEqual({ ambiguous: ['alpha', 'beta'] });
    expect(attributeRecord({ shared: 1 }, [b, a])).toEqual({ ambiguous: ['beta', 'alpha'] });
  });

  it('one sure row wins over any likely ones; two likely rows and no sure one is ambiguous', () => {
    const a = row('alpha', likely('x'));
    const b = row('beta', sure('x'));
    const c = row('gamma', likely('x'));
    expect(attributeRecord({ x: 1 }, [a, b, c])).toEqual({ agent: 'beta' });
    expect(attributeRecord({ x: 1 }, [a, c])).toEqual({ ambiguous: ['alpha', 'gamma'] });
    expect(attributeRecord({ y: 1 }, [a, b, c])).toBeNull();
  });
});

describe('a file whose first records two agents claim alike', () => {
  // Both Gemini's `$set` and Claude's parentUuid + isSidechain: each is sure of it.
  const both = JSON.stringify({ $set: { lastUpdated: '2026-11-22T10:00:00.000Z' }, parentUuid: null, isSidechain: false });

  it('is read by the agent the next deciding record names, the undecided lines included', async () => {
    expect(attributeRecord(JSON.parse(both))).toEqual({ ambiguous: ['gemini', 'claude'] });
    const file = join(dir, 'tie-then-claude.jsonl');
    const claude = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'logs', 'claude', '01-bash-approve.jsonl'), 'utf8');
    writeFileSync(file, `${both}\n${claude}`);
    const r = await readSessionFile(file);
    expect(r.session?.agent).toBe('claude');
  });

  it('is no one’s when nothing decides it, and the diagnostic says it is ambiguous', async () => {
    const file = join(dir, 'tie-only.jsonl');
    writeFileSync(file, `${both}\n${both}\n`);
    const r = await readSessionFile(file);
    expect(r.session).toBeNull();
    expect(r.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/^ambiguous: gemini and claude each claim/)]);
  });
});

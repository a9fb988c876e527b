// `rec demo`'s answers before it starts anything: help, a wrong agent, an agent with no demo yet,
// and no terminal to run the agent in (vitest's stdin is not one). The run itself is proved on the
// real Codex in test/e2e/codex/recDemo.test.ts and on the real Claude Code in
// test/e2e/claude/recDemo.test.ts.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { demoCommand } from '../../../src/commands/demo.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';

async function demo(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const status = await demoCommand(args, { stdout, stderr, env: {}, cwd: process.cwd() });
  return { status, out: String(stdout.read() ?? ''), err: String(stderr.read() ?? '') };
}

describe('rec demo', () => {
  it('--help describes it', async () => {
    const r = await demo('--help');
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/^usage: rec demo \[--db PATH\] \[--agent-bin PATH\] \[AGENT\]/);
    expect(r.out.replace(/\s+/g, ' ')).toContain(AGENT_NAMES.join(', '));
    expect(r.out).toContain('mock model');
  });

  it('refuses an unknown agent in one line, status 2', async () => {
    const r = await demo('vim');
    expect(r.status).toBe(2);
    expect(r.err).toBe(`rec demo: unknown agent 'vim': expected one of ${AGENT_NAMES.join(', ')}\n`);
  });

  it('needs a terminal: the agent runs interactively', async () => {
    const r = await demo();
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/^rec demo: needs a terminal/);
  });
});

// Copilot's tool table (the kind of a refusal of each tool, the action a call takes), its home
// folder and session files, and the record shapes that say Copilot wrote a line: what its registry
// row will be made of (src/agents/agentModule.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotHome, copilotSessionRoots, isCopilotSessionFile, pathSaysCopilot } from '../../../../src/agents/copilot/home.js';
import { sampleSessionFile } from '../../../support/copilot/samples.js';
import { READ_TYPE_NAMES, recordSaysCopilot } from '../../../../src/agents/copilot/recordTypes.js';
import { READ_TYPES } from '../../../../src/agents/copilot/sessionRecords.js';
import { COPILOT_TOOLS } from '../../../../src/agents/copilot/tools.js';
import { AGENT_MODULES } from '../../../../src/agents/registry.js';
import { toAction, toRejectionKind } from '../../../../src/readers/action.js';
import { RECORDED_DIR } from '../../../support/copilot/readEvents.js';

describe("Copilot's tools", () => {
  it.each([
    ['bash', 'command'],
    ['create', 'edit'],
    ['edit', 'edit'],
    ['view', 'permission'],
    ['marker-touch_marker', 'mcp'],
    ['ask_user', null],
    ['read_bash', null],
  ])('a refusal of %s is of kind %s', (tool, kind) => {
    expect(toRejectionKind(COPILOT_TOOLS, tool)).toBe(kind);
  });

  it('inlines the action of each call as the recordings give its arguments', () => {
    expect(toAction(COPILOT_TOOLS, 'bash', { command: 'echo hi > f', description: 'Write f' })).toEqual({ type: 'command', command: 'echo hi > f' });
    expect(toAction(COPILOT_TOOLS, 'create', { path: '/w/c.txt', file_text: 'new\n' })).toEqual({
      type: 'edit',
      edits: [{ path: '/w/c.txt', operation: 'write', old_text: null, new_text: 'new\n' }],
    });
    expect(toAction(COPILOT_TOOLS, 'edit', { path: '/w/n.txt', old_str: 'a', new_str: 'b' })).toEqual({
      type: 'edit',
      edits: [{ path: '/w/n.txt', operation: 'update', old_text: 'a', new_text: 'b' }],
    });
    expect(toAction(COPILOT_TOOLS, 'marker-touch_marker', { name: 'm.txt' })).toEqual({ type: 'other' });
  });

  it('every tool the recordings called has a kind, but the ask_user form (no permission prompt)', () => {
    const names = new Set<string>();
    for (const f of readdirSync(RECORDED_DIR).filter((f) => f.endsWith('.events.jsonl'))) {
      for (const line of readFileSync(join(RECORDED_DIR, f), 'utf8').split('\n').filter((l) => l.includes('"tool.execution_start"'))) {
        names.add((JSON.parse(line) as { data: { toolName: string } }).data.toolName);
      }
    }
    expect([...names].filter((n) => toRejectionKind(COPILOT_TOOLS, n) === null).sort()).toEqual(['ask_user']);
  });
});

describe("Copilot's home and session files", () => {
  const HOME = '/home/someone';
  it.each([
    [{ HOME, COPILOT_HOME: '/srv/cp' }, '/srv/cp'],
    [{ HOME, COPILOT_HOME: '' }, `${HOME}/.copilot`],
    [{ HOME }, `${HOME}/.copilot`],
  ])('%o: home %s, sessions in its session-state/', (env, home) => {
    expect(copilotHome(env)).toBe(home);
    expect(copilotSessionRoots(env)).toEqual([`${home}/session-state`]);
  });

  const session = `${HOME}/.copilot/session-state/7951ea01-1d20-4920-9cd4-5f71f6489dd7`;
  it.each([
    [`${session}/events.jsonl`, true],
    [`${session}/workspace.yaml`, false],
    [`${session}/checkpoints/events.jsonl`, false],
    [`${HOME}/.copilot/session-state/not-a-uuid/events.jsonl`, false],
    [`${HOME}/elsewhere/events.jsonl`, false],
  ])('%s is a session file: %s', (path, yes) => {
    expect(isCopilotSessionFile(path)).toBe(yes);
  });

  it('a path says Copilot by its home folder or its session file\'s place', () => {
    expect(pathSaysCopilot(`${session}/events.jsonl`)).toBe(true);
    expect(pathSaysCopilot('/tmp/copy/session-state/7951ea01-1d20-4920-9cd4-5f71f6489dd7/events.jsonl')).toBe(true);
    expect(pathSaysCopilot(`${HOME}/.copilot/logs/process-1.log`)).toBe(true);
    expect(pathSaysCopilot(`${HOME}/.codex/sessions/rollout-1.jsonl`)).toBe(false);
  });
});

describe('which agent wrote a Copilot line', () => {
  const files = readdirSync(RECORDED_DIR).filter((f) => f.endsWith('.events.jsonl'));
  it.each(files)('%s: Copilot is sure of every line, and no other registered agent claims one', (file) => {
    for (const line of sampleSessionFile(file.replace(/\.events\.jsonl$/, ''))) {
      const record = JSON.parse(line) as Record<string, unknown>;
      expect(recordSaysCopilot(record), line.slice(0, 60)).toBe('sure');
      for (const m of AGENT_MODULES.filter((a) => a.name !== 'copilot')) expect(m.recordSaysAgent(record), `${m.name}: ${line.slice(0, 60)}`).toBeNull();
    }
  });

  it('a dotted type with data but no linked chain is only likely; other shapes are not Copilot\'s', () => {
    expect(recordSaysCopilot({ type: 'session.future', data: {}, id: 'x' })).toBe('likely');
    expect(recordSaysCopilot({ type: 'session.start', data: {} })).toBe('likely');
    expect(recordSaysCopilot({ type: 'response_item', payload: {} })).toBeNull();
    expect(recordSaysCopilot({ type: 'user', message: {}, parentUuid: null })).toBeNull();
  });

  it("the row's zod-free type list (recordTypes.ts) names exactly the types the reader parses", () => {
    expect([...READ_TYPE_NAMES].sort()).toEqual(Object.keys(READ_TYPES).sort());
  });
});

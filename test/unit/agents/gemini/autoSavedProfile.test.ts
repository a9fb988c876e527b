// Gemini's profile reading the always-allow rule back: the shell dialog with "Allow this command
// for all future sessions" on screen (as measured on 0.61.0), the recorded session file of a shell
// call that ran, and auto-saved.toml written on real files before or after the call's outcome.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionFact } from '../../../../src/agents/common/agentProfile.js';
import { GeminiProfile } from '../../../../src/agents/gemini/profile.js';
import type { ScreenSnapshot, ScreenView } from '../../../../src/core/screen.js';

const SESSION = join(import.meta.dirname, '../../../fixtures/gemini/0.61.0/recorded/shell-approve-enter.session.jsonl');
const RULE = ['[[rule]]', 'decision = "allow"', 'priority = 950', 'toolName = "run_shell_command"', 'commandPrefix = [ "touch" ]', 'modes = [ "default", "autoEdit", "yolo" ]'].join('\n');
const W = 98;
const row = (text: string): string => `│ ${text.padEnd(W - 4)} │`;
/** The dialog as Gemini 0.61.0 drew it with security.enablePermanentToolApproval on (docs/gemini.md). */
function dialog(always: boolean): string[] {
  const options = ['● 1. Allow once', '  2. Allow for this session', ...(always ? ['  3. Allow this command for all future sessions ~/.gemini/policies/auto-saved.toml'] : []), `  ${always ? 4 : 3}. No, suggest changes (esc)`];
  return [
    ' > [[scenario:shell]] please do the thing',
    `╭${'─'.repeat(W - 2)}╮`,
    row('? Shell  touch shell_marker.txt'),
    `│ ╭${'─'.repeat(W - 6)}╮ │`,
    `│ │ ${'touch shell_marker.txt'.padEnd(W - 8)} │ │`,
    `│ ╰${'─'.repeat(W - 6)}╯ │`,
    row('Allow execution of [Shell]?'),
    row(''),
    ...options.map(row),
    `╰${'─'.repeat(W - 2)}╯`,
  ];
}

let dir: string;
let profile: GeminiProfile;
let ruleFile: string;

function show(lines: readonly string[]): void {
  const snap: ScreenSnapshot = { cols: 100, rows: 40, lines, styles: [], cursor: { x: 0, y: 0 }, seq: 1 };
  expect(profile.readScreen(snap).prompt?.options.length).toBe(lines.filter((l) => /\d\. /.test(l)).length);
}

/** The permission_rule each output fact carries, by call id, from feeding these records. */
function rulesFrom(lines: readonly string[]): Array<[string, unknown]> {
  const facts: SessionFact[] = lines.flatMap((l) => profile.translateRecord(l));
  return facts.flatMap((f) => (f.type === 'output' ? [[f.callId, f.native?.['permission_rule']] as [string, unknown]] : []));
}

const records = (): string[] => readFileSync(SESSION, 'utf8').trimEnd().split('\n');
/** The index of the record that ends the call (its status success). */
const outcomeAt = (lines: readonly string[]): number => lines.findIndex((l) => l.includes('"status":"success"'));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rec-gemini-always-'));
  const env = { HOME: join(dir, 'home') };
  ruleFile = join(dir, 'home', '.gemini', 'policies', 'auto-saved.toml');
  mkdirSync(join(ruleFile, '..'), { recursive: true });
  const screen = { snapshot: () => undefined, onDidRender: () => ({ dispose() {} }) } as unknown as ScreenView;
  profile = new GeminiProfile({ env, cwd: join(dir, 'work'), startedAt: new Date(), screen });
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('gemini 0.61.0: the rule "Allow this command for all future sessions" saved', () => {
  it('is on the outcome of the call whose dialog offered it, when saved before the outcome', () => {
    show(dialog(true));
    writeFileSync(ruleFile, `${RULE}\n`);
    const out = rulesFrom(records());
    expect(out).toHaveLength(1);
    expect(out[0]![0]).toMatch(/^run_shell_command__/);
    expect(out[0]![1]).toBe(RULE);
  });

  it('comes with a later record when Gemini saves it after the outcome', () => {
    show(dialog(true));
    const lines = records();
    const at = outcomeAt(lines);
    const before = rulesFrom(lines.slice(0, at + 1));
    expect(before.map(([, rule]) => rule)).toEqual([undefined]);
    writeFileSync(ruleFile, `${RULE}\n`);
    const after = rulesFrom(lines.slice(at + 1));
    expect(after).toEqual([[before[0]![0], RULE]]);
  });

  it('is not read for a dialog without the option', () => {
    show(dialog(false));
    writeFileSync(ruleFile, `${RULE}\n`);
    expect(rulesFrom(records()).map(([, rule]) => rule)).toEqual([undefined]);
  });

  it('is awaited no longer once the user types the next message', () => {
    show(dialog(true));
    const lines = records();
    const at = outcomeAt(lines);
    rulesFrom(lines.slice(0, at + 1));
    const next = JSON.stringify({ id: 'next-user-message', timestamp: '2026-11-25T17:25:50.000Z', type: 'user', content: [{ text: 'and now?' }] });
    rulesFrom([next]);
    writeFileSync(ruleFile, `${RULE}\n`);
    expect(rulesFrom(lines.slice(at + 1))).toEqual([]);
  });
});

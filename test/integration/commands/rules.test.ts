// `rec rules` as a command, on the agents' recorded session files with no sidecar: the text fits
// 80 columns, --json holds the whole report, --format prints one agent's file, and --write refuses
// a settings file it cannot parse, leaving it as it was.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, describe, expect, it } from 'vitest';
import { rulesCommand } from '../../../src/commands/rules.js';
import { formatRulesReport } from '../../../src/commands/rulesTable.js';
import type { RulesReport } from '../../../src/rules/ruleTypes.js';
import { runCommand } from '../../support/runCommand.js';
import { logFile, LOGS } from '../../support/fixturePaths.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-rules-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NO_DB = { REC_DB: join(dir, 'none.db') };

describe('rec rules on the recorded session files', () => {
  it('--json holds every agent with every field; the text form fits 80 columns', async () => {
    const r = await runCommand(rulesCommand, ['--json', '--min', '1', `${LOGS}claude`, `${LOGS}codex`, `${LOGS}gemini`], NO_DB);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as RulesReport;
    expect(report.agents.map((a) => a.agent)).toEqual(['claude', 'codex', 'gemini']);
    for (const a of report.agents) {
      expect(Object.keys(a).sort()).toEqual(['agent', 'allow', 'deny_or_ask', 'existing', 'notes', 'project', 'rule_files', 'sessions', 'sessions_without_sidecar', 'target', 'withheld']);
      expect(a.notes[0]).toContain('not recorded by rec');
    }
    const gemini = report.agents[2]!;
    expect(gemini.deny_or_ask[0]).toMatchObject({ decision: 'ask', match: { kind: 'command', words: ['touch'] }, evidence: { reasons: expect.arrayContaining(['No - use a different file name please']) } });
    const text = formatRulesReport(report, 80);
    for (const line of text.split('\n')) expect([line, stringWidth(line) <= 80]).toEqual([line, true]);
    expect(text).toContain('gemini: ');
  });

  it("--format prints only that agent's rules, in its file's format", async () => {
    const r = await runCommand(rulesCommand, ['--format', 'gemini', `${LOGS}gemini`], NO_DB);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\[\[rule\]\]\ntoolName = "run_shell_command"\ncommandPrefix = "touch"\ndecision = "ask_user"\npriority = 200\n/);
  });

  it('--write leaves a settings file it cannot parse untouched, with a one-line error', async () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    const settings = join(project, '.claude', 'settings.local.json');
    writeFileSync(settings, '{ "permissions": { "allow": [ }');
    const session = join(dir, 'claude-session.jsonl');
    // The recorded refusal of an edit, in two sessions: a deny rule to write.
    const lines = readFileSync(logFile('claude', '15-edit-reject-Esc.jsonl'), 'utf8');
    writeFileSync(session, lines);
    writeFileSync(join(dir, 'claude-session-2.jsonl'), lines.replace(/"sessionId":"([^"]*)"/g, '"sessionId":"$1-2"'));
    const r = await runCommand(rulesCommand, ['--write', '--format', 'claude', session, join(dir, 'claude-session-2.jsonl')], NO_DB, project);
    expect(r.stderr.split('\n').filter((l) => l !== '')).toEqual([expect.stringMatching(/^rec rules: .*settings\.local\.json: not valid JSON .*left untouched$/)]);
    expect(r.code).toBe(1);
    expect(readFileSync(settings, 'utf8')).toBe('{ "permissions": { "allow": [ }');
  });

  it('--write without an agent is a usage error', async () => {
    const r = await runCommand(rulesCommand, ['--write'], NO_DB);
    expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining('--write needs --agent or --format') });
  });
});

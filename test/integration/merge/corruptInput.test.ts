// Bad input is counted and reported with file and line; the rest of the work goes on; the exit
// status is non-zero only when nothing could be read.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeCommand } from '../../../src/commands/merge.js';
import { statsCommand } from '../../../src/commands/stats.js';
import { MergedSession } from '../../../src/merge/mergedSession.js';
import { logFile } from '../../support/fixturePaths.js';
import { runCommand } from '../../support/runCommand.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-corrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NO_DB = ['--db', '/nonexistent/rec.db'];

function linesOf(agent: string, name: string): string[] {
  return readFileSync(logFile(agent, name), 'utf8').trimEnd().split('\n');
}
function write(name: string, lines: string[], trailingNewline = true): string {
  const f = join(dir, name);
  writeFileSync(f, lines.join('\n') + (trailingNewline ? '\n' : ''));
  return f;
}

describe('corrupt input', () => {
  it('a truncated last line: truncated_line with file and line, the rest of the session is read', async () => {
    const lines = linesOf('claude', '13-parallel-reject-first-No.jsonl');
    const last = lines.length;
    lines[last - 1] = lines[last - 1]!.slice(0, 40);
    const f = write('truncated.jsonl', lines, false);
    const r = await runCommand(mergeCommand, [f, '--agent', 'claude', ...NO_DB]);
    expect(r.code).toBe(0);
    const m = MergedSession.parse(JSON.parse(r.stdout));
    expect(m.diagnostics).toEqual([expect.objectContaining({ code: 'truncated_line', severity: 'warning', file: f, line: last })]);
    expect(m.rejections).toHaveLength(1);
    expect(r.stderr).toContain(`${f}:${last}: warning: truncated_line`);
  });

  it('invalid JSON in the middle: invalid_json with its line, the lines after it still count', async () => {
    const lines = linesOf('gemini', 'parallel-esc-first.session.jsonl');
    lines.splice(3, 0, '{"id": "broken", this is not json');
    const f = write('session-invalid.jsonl', lines);
    const r = await runCommand(mergeCommand, [f, ...NO_DB]);
    expect(r.code).toBe(0);
    const m = MergedSession.parse(JSON.parse(r.stdout));
    expect(m.diagnostics).toEqual([expect.objectContaining({ code: 'invalid_json', severity: 'error', file: f, line: 4 })]);
    expect(m.skipped).toHaveLength(1);
  });

  it('a file that vanished: missing_file; the other file is merged and the exit status is 0', async () => {
    const gone = join(dir, 'rollout-gone.jsonl');
    const r = await runCommand(mergeCommand, [gone, logFile('codex', 'shell-approve.rollout.jsonl'), ...NO_DB]);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`rec merge: ${gone}: error: missing_file: no such file`);
  });

  it('an unreadable file: unreadable_file', async () => {
    const f = write('rollout-locked.jsonl', linesOf('codex', 'shell-approve.rollout.jsonl'));
    chmodSync(f, 0o000);
    // root reads any file; then a path through a regular file stands in for an unreadable one.
    const target = process.getuid?.() === 0 ? join(f, 'inside.jsonl') : f;
    const r = await runCommand(mergeCommand, [target, ...NO_DB]);
    chmodSync(f, 0o600);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: error: unreadable_file: cannot read`));
  });

  it('an unknown version: counted and reported, the session is merged', async () => {
    const lines = linesOf('claude', '00-one-line-of-each-type.jsonl').map((l) => l.replace(/"version":"2\.1\.328"/g, '"version":"3.0.0"'));
    const f = write('claude-v3.jsonl', lines);
    const r = await runCommand(mergeCommand, [f, '--agent', 'claude', ...NO_DB]);
    expect(r.code).toBe(0);
    const m = MergedSession.parse(JSON.parse(r.stdout));
    expect(m.diagnostics).toEqual([expect.objectContaining({ code: 'unknown_version', file: f, line: 5 })]);
    expect(m.session.agent_version).toBe('3.0.0');
  });

  it('nothing readable at all: exit status 1, every file reported', async () => {
    const junk = write('junk.jsonl', ['not json', '{"neither": "a known record"}']);
    const empty = write('empty.jsonl', []);
    for (const cmd of [mergeCommand, statsCommand]) {
      const r = await runCommand(cmd, [junk, empty, join(dir, 'missing.jsonl'), ...NO_DB]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${junk}:1: error: invalid_json`);
      expect(r.stderr).toContain(`${junk}: error: unknown_format`);
      expect(r.stderr).toContain(`${empty}: error: empty_file`);
      expect(r.stderr).toContain('missing_file');
    }
  });

  it('a sidecar that is not a database: merged from the files alone, with a warning', async () => {
    const bogus = write('bogus.db', ['this is not sqlite']);
    const r = await runCommand(mergeCommand, [logFile('codex', 'shell-deny-esc.rollout.jsonl'), '--db', bogus]);
    expect(r.code).toBe(0);
    expect(MergedSession.parse(JSON.parse(r.stdout)).unknown).toHaveLength(1);
    expect(r.stderr).toMatch(/warning: sidecar_unavailable/);
  });
});

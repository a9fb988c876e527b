// `rec report` as a command, without a browser: where the page goes, its mode, and a one-line error
// when it cannot be written.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCommand } from '../../../src/commands/report.js';
import { statsCommand } from '../../../src/commands/stats.js';
import { REPO_ROOT } from '../../support/rec.js';
import { runCommand } from '../../support/runCommand.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-report-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ROLLOUT = join(REPO_ROOT, 'test/fixtures/logs/codex/shell-deny-esc.rollout.jsonl');
const args = (...more: string[]) => [ROLLOUT, '--no-progress', '--db', join(dir, 'none.db'), ...more];

describe('rec report', () => {
  it('writes rec-report.html in the current folder, mode 0600 even over a readable older copy, and prints its path and a summary', async () => {
    const file = join(dir, 'rec-report.html');
    writeFileSync(file, 'old');
    chmodSync(file, 0o644);
    const r = await runCommand(reportCommand, args(), {}, dir);
    expect(r.code, r.stderr).toBe(0);
    const [path, summary] = r.stdout.trimEnd().split('\n');
    expect(path).toBe(file);
    expect(summary).toMatch(/^1 session: \d+ approved, \d+ rejected, \d+ skipped, \d+ interrupted$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(file).size).toBeGreaterThan(100_000);
  });

  it('cannot write into a missing folder: one line naming the file, exit 1, no temporary file left', async () => {
    const r = await runCommand(reportCommand, args('-o', join(dir, 'missing', 'r.html')), {}, dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`rec report: cannot write ${join(dir, 'missing', 'r.html')}: ENOENT: no such file or directory\n`);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it("reads GitHub Copilot CLI's events.jsonl files alone: the figures rec stats gives, and the reason the user typed into Copilot's prompt", async () => {
    const copilot = join(REPO_ROOT, 'test/fixtures/logs/copilot');
    const common = [copilot, '--no-progress', '--db', join(dir, 'none.db')];
    const stats = JSON.parse((await runCommand(statsCommand, [...common, '--json'], {}, dir)).stdout) as {
      sessions: number;
      approvals: number;
      rejections: { total: number };
      skipped: { total: number };
      interruptions: { total: number };
    };
    const file = join(dir, 'copilot.html');
    const r = await runCommand(reportCommand, [...common, '-o', file], {}, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')[1]).toBe(
      `${stats.sessions} sessions: ${stats.approvals} approved, ${stats.rejections.total} rejected, ${stats.skipped.total} skipped, ${stats.interruptions.total} interrupted`,
    );
    expect(stats.sessions).toBe(8);
    expect(stats.rejections.total).toBeGreaterThan(0);
    expect(readFileSync(file, 'utf8')).toContain('please use printf instead');
  });
});


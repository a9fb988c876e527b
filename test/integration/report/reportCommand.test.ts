// `rec report` as a command, without a browser: where the page goes, its mode, and a one-line error
// when it cannot be written.
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCommand } from '../../../src/commands/report.js';
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
});

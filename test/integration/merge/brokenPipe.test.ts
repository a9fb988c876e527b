// `rec merge … | head -1` and `rec stats --json | head -1` on the built CLI (npx tsc -p
// tsconfig.json first): once the reader of stdout is gone, rec reads no more files and exits 0
// without an EPIPE stack. A FIFO placed late among the session files proves it: opening it blocks
// until someone writes, so a rec that went on reading would never exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, copyFileSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { RECORDED } from '../../support/codex/recordedSidecar.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Generous for two loaded cores; a rec that ignores the closed pipe blocks on the FIFO for good. */
const EXIT_TIMEOUT_MS = 60_000;
/** Sessions before the FIFO: far more output than a pipe and rec's in-flight window hold. */
const SESSIONS_BEFORE_FIFO = 60;

const dir = mkdtempSync(join(tmpdir(), 'rec-merge-pipe-'));
const fifo = join(dir, 'rollout-zz-fifo.jsonl');
const files: string[] = [];
for (let i = 0; i < SESSIONS_BEFORE_FIFO; i++) {
  const f = join(dir, `rollout-${String(i).padStart(3, '0')}.jsonl`);
  copyFileSync(`${RECORDED}parallel-approve-reject.rollout.jsonl`, f);
  files.push(f);
}
execFileSync('mkfifo', [fifo]);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface PipeRun {
  firstLine: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Lets a rec blocked in open() on the FIFO go on (it then reads an empty file), so it can exit. */
function releaseFifo(): void {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: nobody has the FIFO open for reading, so nobody is blocked on it.
  }
}

/** Runs rec with stdout piped to us; after the first line we close our end, like `head -1`. */
function runHeadOne(args: string[]): Promise<PipeRun> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [`${ROOT}bin/rec.js`, ...args], {
      cwd: ROOT,
      env: { ...process.env, HOME: '/nonexistent-home', REC_DB: join(dir, 'none.db') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let firstLine: string | null = null;
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      if (firstLine !== null) return;
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl === -1) return;
      firstLine = out.slice(0, nl);
      child.stdout!.destroy(); // the reader leaves: rec's next write fails with EPIPE
    });
    const timer = setTimeout(() => {
      releaseFifo();
      child.kill('SIGKILL');
      reject(new Error(`rec did not exit within ${EXIT_TIMEOUT_MS} ms after its reader left (it kept reading files); stderr: ${stderr}`));
    }, EXIT_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ firstLine: firstLine ?? '', code, signal, stderr });
    });
  });
}

describe('rec merge / rec stats whose reader leaves early (| head -1), built', () => {
  for (const jobs of ['1', '2']) {
    it(`merge --jobs ${jobs}: stops reading after the pipe closes, exits 0, nothing on stderr`, async () => {
      const r = await runHeadOne(['merge', '--jsonl', '--jobs', jobs, '--no-progress', ...files, fifo]);
      expect(JSON.parse(r.firstLine)).toMatchObject({ session: { agent: 'codex' } });
      expect(r).toMatchObject({ code: 0, signal: null, stderr: '' });
    }, EXIT_TIMEOUT_MS * 2);
  }

  it('stats --json: exits 0 with nothing on stderr when the reader takes one line', async () => {
    const r = await runHeadOne(['stats', '--json', '--jobs', '1', '--no-progress', ...files]);
    expect(r.firstLine).toBe('{');
    expect(r).toMatchObject({ code: 0, signal: null, stderr: '' });
  }, EXIT_TIMEOUT_MS * 2);
});

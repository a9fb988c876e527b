// @ts-check
// The command lines compared: the same program bare under the outer pty, under `script` (util-linux)
// and under `rec --`, with an environment that is the same for all three.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const REC_JS = join(ROOT, 'bin/rec.js');

/** Builds the command lines for one bench invocation; `dispose()` removes its scratch folder. */
export class BenchCommands {
  /** @param {{recNodeArgs?: string[]}} opts */
  constructor(opts = {}) {
    this.scratch = mkdtempSync(join(tmpdir(), 'rec-bench-'));
    /** Benchmarks never touch the user's database. */
    this.dbPath = join(this.scratch, 'rec.db');
    this._recNodeArgs = opts.recNodeArgs ?? [];
    /** @type {NodeJS.ProcessEnv} */
    const env = { ...process.env, TERM: 'xterm-256color', SHELL: '/bin/sh' };
    // A debug log or a database chosen by the caller's environment must not change what is measured.
    delete env.REC_DEBUG;
    delete env.REC_DB;
    this.env = env;
  }

  bare(argv) {
    return { file: argv[0], args: argv.slice(1), env: this.env };
  }

  script(argv) {
    return { file: 'script', args: ['-q', '-c', argv.map(shellQuote).join(' '), '/dev/null'], env: this.env };
  }

  rec(argv) {
    const args = [REC_JS, '--db', this.dbPath, '--', ...argv];
    // Run as users do, through the launcher (its Node flags for agent runs apply); extra Node
    // arguments (e.g. --cpu-prof) need node on the command line, with the launcher's flags added.
    if (this._recNodeArgs.length === 0) return { file: REC_JS, args: args.slice(1), env: this.env };
    return { file: process.execPath, args: ['--max-semi-space-size=1', ...this._recNodeArgs, ...args], env: this.env };
  }

  node(argv) {
    return { file: process.execPath, args: argv, env: this.env };
  }

  dispose() {
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

/** util-linux `script`, the anchor of throughput and latency; its version, or undefined if absent. */
export function scriptVersion() {
  try {
    const out = execFileSync('script', ['--version'], { encoding: 'utf8' }).trim();
    return /util-linux/.test(out) ? out : undefined;
  } catch {
    // ENOENT: no script(1) on this machine; the sections that need it say so.
    return undefined;
  }
}

/** Fails with a one-line hint when the compiled CLI is missing. */
export function checkBuilt() {
  if (!existsSync(join(ROOT, 'dist/cli.js'))) {
    throw new Error('dist/cli.js is missing; build first: npx tsc -p tsconfig.json');
  }
}

/** A private folder for generated output files, reused across invocations (they are deterministic). */
export function dataDir() {
  const dir = join(tmpdir(), `rec-bench-data-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export function shellQuote(s) {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

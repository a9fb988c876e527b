// An isolated world for the real Codex CLI: its own HOME and CODEX_HOME in a temp dir, a config that
// skips login, onboarding, update checks and analytics, trusts the work dir and points the model
// provider at our mock Responses server; and a cleanup that stops every process Codex started, by pid.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { createEnvDirs } from '../../../lab/envDirs.js';
import { descendantPids, killPids } from '../../../lab/processTree.js';

/** The env var that holds the mock's bearer token (`env_key` of the mock provider). */
const API_KEY_ENV = 'REC_MOCK_API_KEY';
/** Where stray HTTP(S) traffic goes: a loopback port nothing listens on (discard), so it fails fast and stays local. */
const DEAD_PROXY = 'http://127.0.0.1:9';

export interface CodexEnvOptions {
  /** `base_url` of the mock provider, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  readonly token: string;
  /** A fixed base directory instead of a fresh temp dir (the fixture recorder uses one so paths are stable). */
  readonly baseDir?: string;
  /** The temp dir's name prefix (default `rec-codex-e2e-`). */
  readonly prefix?: string;
  readonly approvalPolicy?: 'on-request' | 'never';
  readonly sandboxMode?: 'read-only' | 'workspace-write' | 'danger-full-access';
  /** Extra TOML appended to config.toml. */
  readonly extraToml?: string;
}

export interface CodexEnv {
  readonly baseDir: string;
  readonly home: string;
  readonly codexHome: string;
  /** The project dir Codex runs in (a git repo, trusted in config). */
  readonly workDir: string;
  /** The complete environment for the Codex process (no inherited secrets, proxies on loopback). */
  readonly env: NodeJS.ProcessEnv;
  /** Newest first: `$CODEX_HOME/sessions/**\/rollout-*.jsonl`. */
  rolloutFiles(): string[];
  /** Pids of Codex's app-server daemon and its updater, from `$CODEX_HOME/app-server-daemon/*.pid`. */
  daemonPids(): number[];
  /** The daemon's socket outside CODEX_HOME (`/tmp/codex-daemon-<uid>/<hash>`), or null when none was linked. */
  daemonSocket(): string | null;
  /** Stops the daemon(s), every descendant of theirs and of `extraRoots` (e.g. the pty's pid), by pid. */
  stopProcesses(extraRoots?: readonly number[]): Promise<void>;
  /** stopProcesses, removes the daemon's socket and lock, then the temp dir (unless it was a fixed baseDir). */
  dispose(extraRoots?: readonly number[]): Promise<void>;
}

const PidFile = z.object({ pid: z.number().int().positive() }).loose();

export function tomlString(s: string): string {
  return JSON.stringify(s);
}

export function codexConfigToml(o: CodexEnvOptions & { workDir: string }): string {
  return `model = "mock-model"
model_provider = "mock"
approval_policy = ${tomlString(o.approvalPolicy ?? 'on-request')}
sandbox_mode = ${tomlString(o.sandboxMode ?? 'read-only')}
check_for_update_on_startup = false
cli_auth_credentials_store = "file"
hide_agent_reasoning = true

[model_providers.mock]
name = "mock"
base_url = ${tomlString(o.baseUrl)}
wire_api = "responses"
env_key = ${tomlString(API_KEY_ENV)}
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 120000

[features]
plugins = false
apps = false

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
trace_exporter = "none"
metrics_exporter = "none"

[projects.${tomlString(o.workDir)}]
trust_level = "trusted"
${o.extraToml ?? ''}
`;
}

export function createCodexEnv(opts: CodexEnvOptions): CodexEnv {
  const dirs = createEnvDirs({ prefix: opts.prefix ?? 'rec-codex-e2e-', baseDir: opts.baseDir, agentDir: '.codex' });
  const { baseDir, home, workDir } = dirs;
  const codexHome = dirs.agentDir;
  execFileSync('git', ['init', '-q'], { cwd: workDir });
  writeFileSync(join(codexHome, 'config.toml'), codexConfigToml({ ...opts, workDir }), { mode: 0o600 });

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    CODEX_HOME: codexHome,
    USER: process.env.USER ?? 'root',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    // Codex refuses to put its helper binaries under the temp dir; our CODEX_HOME lives in one, so
    // give Codex a temp dir of its own inside the base dir (otherwise: "⚠ 1 warning" on every screen).
    TMPDIR: join(baseDir, 'tmp'),
    [API_KEY_ENV]: opts.token,
    HTTP_PROXY: DEAD_PROXY,
    HTTPS_PROXY: DEAD_PROXY,
    ALL_PROXY: DEAD_PROXY,
    http_proxy: DEAD_PROXY,
    https_proxy: DEAD_PROXY,
    all_proxy: DEAD_PROXY,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    // No desktop notifications or telemetry from anything Codex spawns.
    DO_NOT_TRACK: '1',
    CODEX_DISABLE_TELEMETRY: '1',
  };

  const daemonDir = join(codexHome, 'app-server-daemon');
  const daemonPids = (): number[] => {
    if (!existsSync(daemonDir)) return [];
    const pids: number[] = [];
    for (const f of readdirSync(daemonDir)) {
      if (!f.endsWith('.pid')) continue;
      const raw = safeRead(join(daemonDir, f));
      const parsed = PidFile.safeParse(safeJson(raw));
      if (parsed.success) pids.push(parsed.data.pid);
      else if (/^\s*\d+\s*$/.test(raw)) pids.push(Number(raw.trim()));
    }
    return pids;
  };

  const stopProcesses = async (extraRoots: readonly number[] = []): Promise<void> => {
    const roots = [...extraRoots, ...daemonPids()];
    const all = new Set<number>(roots);
    for (const pid of descendantPids(roots)) all.add(pid);
    // The daemon may be forked after we looked: look again once the first round is gone.
    await killPids([...all]);
    const late = daemonPids().filter((p) => !all.has(p));
    if (late.length > 0) await killPids([...late, ...descendantPids(late)]);
  };

  return {
    baseDir,
    home,
    codexHome,
    workDir,
    env,
    rolloutFiles: () => findRollouts(join(codexHome, 'sessions')),
    daemonPids,
    daemonSocket: () => daemonSocket(codexHome),
    stopProcesses,
    async dispose(extraRoots = []) {
      const before = daemonSocket(codexHome);
      await stopProcesses(extraRoots);
      // Codex keeps its daemon's socket outside CODEX_HOME (and ignores TMPDIR): once the daemon
      // is stopped, remove the socket and its lock, found through CODEX_HOME's own link to them
      // (looked up again after the stop, for a daemon that was forked late).
      for (const socket of new Set([before, daemonSocket(codexHome)])) {
        if (socket) for (const f of [socket, `${socket}.lock`]) rmSync(f, { force: true });
      }
      dirs.remove();
    },
  };
}

/**
 * The daemon's socket: `$CODEX_HOME/app-server-control/app-server-control.sock` links to
 * `/tmp/codex-daemon-<uid>/<hash>` (0.169.0). Only a target in such a folder is returned.
 */
function daemonSocket(codexHome: string): string | null {
  try {
    const target = readlinkSync(join(codexHome, 'app-server-control', 'app-server-control.sock'));
    return /\/codex-daemon-\d+\/[0-9a-f]{64}$/.test(target) ? target : null;
  } catch {
    return null; // no daemon was started, or it never linked its socket
  }
}

function findRollouts(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^rollout-.*\.jsonl$/.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  // Names start with the ISO date and time, so a reverse sort is newest first.
  return out.sort((a, b) => (a < b ? 1 : -1));
}

function safeRead(p: string): string {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    // The daemon removes its pid file as it exits: nothing to stop then.
    return '';
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    // Older daemons wrote a bare number; the caller handles that form.
    return undefined;
  }
}

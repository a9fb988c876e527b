// An isolated world for the real GitHub Copilot CLI (measured on 1.0.102, docs/copilot.md): its own
// HOME and COPILOT_HOME in a temp dir, `config.json` seeded with the work dir as a trusted folder (so
// the "Confirm folder trust" dialog shows only where a scenario asks for it), BYOK mode pointed at
// rec's mock Messages server (`COPILOT_PROVIDER_TYPE=anthropic`, the key sent as `x-api-key`), offline
// mode on (no GitHub login, telemetry, web tools, GitHub MCP server or auto-update), no inherited
// variable (hence no secret), stray HTTP(S) sent to the mock's guard on loopback; optionally the MCP
// server `marker` and a hook logger in the user's config; and a cleanup that stops every process the
// CLI started, by pid.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createEnvDirs, stopProcessTrees } from '../../../lab/envDirs.js';
import { NOTES_FILE, NOTES_TEXT } from './mockScenarios.js';

/** The hook events 1.0.102 fires (read from its changelog and seen firing, docs/copilot.md §8). */
export const LOGGED_HOOK_EVENTS = [
  'sessionStart',
  'sessionEnd',
  'userPromptSubmitted',
  'preToolUse',
  'permissionRequest',
  'postToolUse',
  'postToolUseFailure',
  'notification',
  'agentStop',
  'subagentStart',
  'subagentStop',
  'errorOccurred',
] as const;

/** The model name the CLI is told; not in its catalog, so it warns once and uses default limits. */
export const MOCK_MODEL = 'mock-model';

export interface CopilotEnvOptions {
  /** COPILOT_PROVIDER_BASE_URL: the mock, e.g. `http://127.0.0.1:PORT`. */
  readonly baseUrl: string;
  /** COPILOT_PROVIDER_API_KEY: the mock's per-run key (sent as `x-api-key`). */
  readonly token: string;
  /** A fixed base directory instead of a fresh temp dir (the fixture recorder uses one so paths are stable). */
  readonly baseDir?: string;
  /** The temp dir's name prefix (default `rec-copilot-e2e-`). */
  readonly prefix?: string;
  /** Leave the work dir untrusted: the "Confirm folder trust" dialog shows at start. */
  readonly untrusted?: boolean;
  /** Append every hook payload of LOGGED_HOOK_EVENTS to this JSONL file (`~/.copilot/hooks/rec-log.json`). */
  readonly hookLog?: string;
  /** User-scope MCP servers (`mcpServers` of `~/.copilot/mcp-config.json`). */
  readonly mcpServers?: Record<string, unknown>;
  /**
   * Where the CLI unpacks its JavaScript (COPILOT_PKG_CACHE_HOME; 235 MB, about 5 s per fresh
   * unpack): a dir shared across runs. By default a `pkg-cache` dir in the temp dir, unpacked anew.
   */
  readonly pkgCacheHome?: string;
}

export interface CopilotEnv {
  readonly baseDir: string;
  readonly home: string;
  /** COPILOT_HOME (`~/.copilot`). */
  readonly copilotHome: string;
  /** The project dir the CLI runs in (a git repo with notes.txt; trusted unless `untrusted`). */
  readonly workDir: string;
  readonly tmpDir: string;
  /** The complete environment for the CLI process. */
  readonly env: NodeJS.ProcessEnv;
  /** Every session's events file (`~/.copilot/session-state/<sessionId>/events.jsonl`), sorted. */
  eventFiles(): string[];
  /** Stops every descendant of `roots` (e.g. the pty's pid) and the roots, by pid. */
  stopProcesses(roots: readonly number[]): Promise<void>;
  /** stopProcesses, then removes the temp dir (unless it was a fixed baseDir). */
  dispose(roots?: readonly number[]): Promise<void>;
}

/** The hook logger: appends `{event, payload}` (its stdin) as one line, prints nothing, exits 0. */
const HOOK_LOGGER = `const fs = require('node:fs');
let s = '';
process.stdin.on('data', (c) => (s += c));
process.stdin.on('end', () => {
  let payload = s;
  try { payload = JSON.parse(s); } catch { /* kept as text */ }
  fs.appendFileSync(process.argv[2], JSON.stringify({ event: process.argv[3], payload }) + '\\n');
});
`;

/** `~/.copilot/hooks/rec-log.json`: one command hook per event, each naming its event. */
function hookConfig(logger: string, log: string): Record<string, unknown> {
  const command = (event: string): string => [process.execPath, logger, log, event].map((a) => JSON.stringify(a)).join(' ');
  return { version: 1, hooks: Object.fromEntries(LOGGED_HOOK_EVENTS.map((e) => [e, [{ type: 'command', bash: command(e), timeoutSec: 10 }]])) };
}

export function createCopilotEnv(opts: CopilotEnvOptions): CopilotEnv {
  const dirs = createEnvDirs({ prefix: opts.prefix ?? 'rec-copilot-e2e-', baseDir: opts.baseDir, agentDir: '.copilot' });
  const { baseDir, home, workDir, tmpDir } = dirs;
  const copilotHome = dirs.agentDir;
  execFileSync('git', ['init', '-q'], { cwd: workDir });
  writeFileSync(join(workDir, NOTES_FILE), NOTES_TEXT);
  const config = opts.untrusted ? {} : { trustedFolders: [workDir] };
  writeFileSync(join(copilotHome, 'config.json'), JSON.stringify(config, null, 2), { mode: 0o600 });
  if (opts.mcpServers) writeFileSync(join(copilotHome, 'mcp-config.json'), JSON.stringify({ mcpServers: opts.mcpServers }, null, 2), { mode: 0o600 });
  if (opts.hookLog) {
    const logger = join(baseDir, 'hook-logger.cjs');
    writeFileSync(logger, HOOK_LOGGER);
    mkdirSync(join(copilotHome, 'hooks'), { recursive: true });
    writeFileSync(join(copilotHome, 'hooks', 'rec-log.json'), JSON.stringify(hookConfig(logger, opts.hookLog), null, 2));
  }

  // Anything that ignores NO_PROXY and tries to leave lands on the mock's guard, which refuses and logs it.
  const guard = opts.baseUrl;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    COPILOT_HOME: copilotHome,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    COPILOT_PKG_CACHE_HOME: opts.pkgCacheHome ?? join(baseDir, 'pkg-cache'),
    USER: process.env.USER ?? 'root',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    TMPDIR: tmpDir,
    COPILOT_PROVIDER_TYPE: 'anthropic',
    COPILOT_PROVIDER_BASE_URL: opts.baseUrl,
    COPILOT_PROVIDER_API_KEY: opts.token,
    COPILOT_MODEL: MOCK_MODEL,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    HTTP_PROXY: guard,
    HTTPS_PROXY: guard,
    http_proxy: guard,
    https_proxy: guard,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    DO_NOT_TRACK: '1',
  };

  const stateDir = join(copilotHome, 'session-state');
  const stopProcesses = stopProcessTrees;
  return {
    baseDir,
    home,
    copilotHome,
    workDir,
    tmpDir,
    env,
    eventFiles: () =>
      existsSync(stateDir)
        ? readdirSync(stateDir)
            .map((d) => join(stateDir, d, 'events.jsonl'))
            .filter((f) => existsSync(f))
            .sort()
        : [],
    stopProcesses,
    async dispose(roots = []) {
      await stopProcesses(roots);
      dirs.remove();
    },
  };
}

/** The environment variable naming a Copilot CLI binary installed elsewhere (e.g. /work/scratch). */
export const COPILOT_BIN_ENV = 'REC_COPILOT_BIN';

/**
 * The CLI's native binary: REC_COPILOT_BIN, else the platform package of the `@github/copilot`
 * devDependency (`@github/copilot-<platform>-<arch>[musl]/copilot`, an optional dependency; the
 * package's own bin is a Node loader that spawns this same file). Null where neither is there.
 */
export function copilotBin(fromUrl: string): string | null {
  const override = process.env[COPILOT_BIN_ENV];
  if (override) return override;
  const require = createRequire(fromUrl);
  const libc = process.platform === 'linux' && existsSync('/etc/alpine-release') ? 'musl' : '';
  const platform = process.platform === 'linux' && libc ? 'linuxmusl' : process.platform;
  try {
    // The platform package exports only its binary (`"exports": {".": "./copilot"}`).
    const bin = require.resolve(`@github/copilot-${platform}-${process.arch}`);
    return existsSync(bin) ? bin : null;
  } catch {
    // Not installed for this platform (an optional dependency).
    return null;
  }
}

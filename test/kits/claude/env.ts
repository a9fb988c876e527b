// An isolated world for the real Claude Code: its own HOME in a temp dir with `~/.claude.json` and
// `~/.claude/settings.json` seeded so no first-run dialog shows (onboarding, theme, API-key approval,
// folder trust, the auto-mode nudges, the official marketplace's auto-install), the model pointed at
// our mock Messages server, no inherited secrets, stray HTTP(S) sent to the mock's guard on loopback;
// and a cleanup that stops every process Claude Code started, by pid.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DENY_RULE, NOTEBOOK_FILE, NOTEBOOK_TEXT, NOTES_FILE, NOTES_TEXT } from '../../../src/lab/mock/claudeScenarios.js';
import { createEnvDirs, stopProcessTrees } from '../../../src/lab/envDirs.js';
import { agentBin } from '../shared/agentBin.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const require = createRequire(import.meta.url);
const MCP_SERVER = join(REPO_ROOT, 'test', 'fakes', 'mcp', 'markerServer.mjs');

const BIN = agentBin('claude');
/** The version under test: the devDependency pin (the newest verified version), or REC_E2E_CLAUDE_BIN's own. */
export const CLAUDE_VERSION = BIN.version;

/**
 * The pinned devDependency's native binary, taken from its platform package (an optional
 * dependency): its postinstall only hard-links that file over `bin/claude.exe`, so where install
 * scripts are skipped `.bin/claude` is the package's placeholder, while the platform package's copy
 * is there either way; REC_E2E_CLAUDE_BIN names a binary installed elsewhere. The binary needs no Node, so the suite runs it on every Node line (20 too,
 * although the package's engines says >= 22). Null where the package is not installed.
 */
export function claudeBin(): string | null {
  // A copy installed elsewhere (where this tree's node_modules lacks the optional platform package,
  // or a newer release under test); agentBin has run it already, so it exists.
  if (BIN.override) return BIN.override;
  const libc = process.platform === 'linux' && existsSync('/etc/alpine-release') ? '-musl' : '';
  try {
    const pkg = require.resolve(`@anthropic-ai/claude-code-${process.platform}-${process.arch}${libc}/package.json`);
    const bin = join(dirname(pkg), 'claude');
    if (existsSync(bin)) return bin;
  } catch {
    // Not installed for this platform (optional dependency): fall back to the wrapper's own copy below.
  }
  const wrapped = join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe');
  return existsSync(wrapped) ? wrapped : null;
}

/** Hook events the fixture recorder logs (all Claude Code 2.1.330 fires in these scenarios, README §3). */
export const LOGGED_HOOK_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'PermissionDenied',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
] as const;

export interface ClaudeEnvOptions {
  /** ANTHROPIC_BASE_URL: the mock, e.g. `http://127.0.0.1:PORT`. */
  readonly baseUrl: string;
  /** ANTHROPIC_API_KEY: the mock's per-run key. */
  readonly token: string;
  /** A fixed base directory instead of a fresh temp dir (the fixture recorder uses one so paths are stable). */
  readonly baseDir?: string;
  /** Append every hook payload of LOGGED_HOOK_EVENTS to this JSONL file (a user hook in settings.json). */
  readonly hookLog?: string;
  /** More keys for the user's `~/.claude/settings.json` (e.g. `tui`). */
  readonly userSettings?: Record<string, unknown>;
  /** Claude Code gets the MCP server test/fakes/mcp/markerServer.mjs, as user-scope server `marker`. */
  readonly mcpServer?: boolean;
}

export interface ClaudeEnv {
  readonly baseDir: string;
  readonly home: string;
  /** The project dir Claude Code runs in (a git repo, trusted in ~/.claude.json, with notes.txt). */
  readonly workDir: string;
  /** The temp dir Claude Code gets (TMPDIR), inside baseDir. */
  readonly tmpDir: string;
  /** The complete environment for the Claude Code process. */
  readonly env: NodeJS.ProcessEnv;
  /** The session transcripts of this project (`~/.claude/projects/<slug>/*.jsonl`), newest last. */
  transcripts(): string[];
  /** The subagent transcripts of a session (`<slug>/<sessionId>/subagents/agent-*.jsonl`). */
  subagentTranscripts(sessionId: string): string[];
  /** Stops every descendant of `roots` (e.g. the pty's pid) and the roots, by pid. */
  stopProcesses(roots: readonly number[]): Promise<void>;
  /** stopProcesses, then removes the temp dir (unless it was a fixed baseDir). */
  dispose(roots?: readonly number[]): Promise<void>;
}

/** `~/.claude.json` past every first-run dialog of 2.1.328/2.1.330 (README §0). */
export function claudeJson(workDir: string, token: string, mcpServer = false): Record<string, unknown> {
  return {
    // A user-scope server: unlike a project's .mcp.json, it asks no "use this server?" question first.
    ...(mcpServer ? { mcpServers: { marker: { type: 'stdio', command: process.execPath, args: [MCP_SERVER], env: {} } } } : {}),
    hasCompletedOnboarding: true,
    lastOnboardingVersion: CLAUDE_VERSION,
    lastReleaseNotesSeen: CLAUDE_VERSION,
    theme: 'dark',
    numStartups: 5,
    autoUpdates: false,
    installMethod: 'npm-local',
    // Without these two a "Make auto mode your default permission mode?" dialog opens.
    hasSeenAutoDefaultNudge: true,
    hasResetAutoModeOptInForDefaultOffer: true,
    // With the env switch, this stops the start-up download of the official plugin marketplace.
    officialMarketplaceAutoInstallAttempted: true,
    officialMarketplaceAutoInstalled: false,
    officialMarketplaceAutoInstallFailReason: 'policy_blocked',
    customApiKeyResponses: { approved: [token.slice(-20)], rejected: [] },
    projects: {
      [workDir]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, projectOnboardingSeenCount: 1, allowedTools: [] },
    },
  };
}

/** `~/.claude/settings.json`: prompts on (auto mode is the advertised default), the deny rule, optional hook logger. */
export function claudeSettings(hookCommand?: string): Record<string, unknown> {
  const settings: Record<string, unknown> = { permissions: { defaultMode: 'default', deny: [DENY_RULE] } };
  if (hookCommand) {
    settings.hooks = Object.fromEntries(LOGGED_HOOK_EVENTS.map((e) => [e, [{ hooks: [{ type: 'command', command: hookCommand }] }]]));
  }
  return settings;
}

/** The hook logger: appends its stdin (the payload) as one line, prints nothing, exits 0. */
const HOOK_LOGGER = `const fs = require('node:fs');
let s = '';
process.stdin.on('data', (c) => (s += c));
process.stdin.on('end', () => fs.appendFileSync(process.argv[2], s.trim() + '\\n'));
`;

export function createClaudeEnv(opts: ClaudeEnvOptions): ClaudeEnv {
  const dirs = createEnvDirs({ prefix: 'rec-claude-e2e-', baseDir: opts.baseDir, agentDir: '.claude' });
  const { baseDir, home, workDir, tmpDir } = dirs;
  const claudeDir = dirs.agentDir;
  execFileSync('git', ['init', '-q'], { cwd: workDir });
  writeFileSync(join(workDir, NOTES_FILE), NOTES_TEXT);
  writeFileSync(join(workDir, NOTEBOOK_FILE), NOTEBOOK_TEXT);
  writeFileSync(join(home, '.claude.json'), JSON.stringify(claudeJson(workDir, opts.token, opts.mcpServer), null, 2), { mode: 0o600 });
  let hookCommand: string | undefined;
  if (opts.hookLog) {
    const logger = join(baseDir, 'hook-logger.cjs');
    writeFileSync(logger, HOOK_LOGGER);
    hookCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(logger)} ${JSON.stringify(opts.hookLog)}`;
  }
  writeFileSync(join(claudeDir, 'settings.json'), JSON.stringify({ ...claudeSettings(hookCommand), ...opts.userSettings }, null, 2), { mode: 0o600 });

  // Anything that ignores NO_PROXY and tries to leave lands on the mock's guard, which refuses and logs it.
  const guard = opts.baseUrl;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    USER: process.env.USER ?? 'root',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    TMPDIR: tmpDir,
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: opts.token,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    HTTP_PROXY: guard,
    HTTPS_PROXY: guard,
    ALL_PROXY: guard,
    http_proxy: guard,
    https_proxy: guard,
    all_proxy: guard,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    DO_NOT_TRACK: '1',
  };

  const projectsDir = join(claudeDir, 'projects');
  const jsonlIn = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f)) : [];
  // The slug is the cwd with `/` replaced by `-` (README §7), but only that case was observed: glob.
  const projectDirs = (): string[] => (existsSync(projectsDir) ? readdirSync(projectsDir).map((d) => join(projectsDir, d)) : []);

  const stopProcesses = stopProcessTrees;

  return {
    baseDir,
    home,
    workDir,
    tmpDir,
    env,
    transcripts: () => projectDirs().flatMap(jsonlIn).sort(),
    subagentTranscripts: (sessionId) => projectDirs().flatMap((d) => jsonlIn(join(d, sessionId, 'subagents'))).sort(),
    stopProcesses,
    async dispose(roots = []) {
      await stopProcesses(roots);
      dirs.remove();
    },
  };
}

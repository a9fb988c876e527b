// An isolated world for the real Claude Code: its own HOME in a temp dir with `~/.claude.json` and
// `~/.claude/settings.json` seeded so no first-run dialog shows (onboarding, theme, API-key approval,
// folder trust, the auto-mode nudges, the official marketplace's auto-install), the model pointed at
// rec's mock Messages server with an API key (so Claude Code never looks for a login of the user's:
// the HOME holding one is not its HOME), telemetry, error reports and the autoupdater off, no
// inherited variable (hence no secret), stray HTTP(S) sent to the mock's guard on loopback; and a
// cleanup that stops every process Claude Code started, by pid.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEnvDirs, stopProcessTrees } from '../../../lab/envDirs.js';
import { DENY_RULE, NOTEBOOK_FILE, NOTEBOOK_TEXT, NOTES_FILE, NOTES_TEXT } from '../../../lab/mock/anthropicMessages/scenarios.js';

/** Hook events the fixture recorder logs (all that Claude Code 2.1.330 fires in these scenarios). */
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
  /** The Claude Code version, for the "last seen" keys that keep the release notes and onboarding away. */
  readonly version: string;
  /** A fixed base directory instead of a fresh temp dir (the fixture recorder uses one so paths are stable). */
  readonly baseDir?: string;
  /** The temp dir's name prefix (default `rec-claude-e2e-`). */
  readonly prefix?: string;
  /** Append every hook payload of LOGGED_HOOK_EVENTS to this JSONL file (a user hook in settings.json). */
  readonly hookLog?: string;
  /** More keys for the user's `~/.claude/settings.json` (e.g. `tui`). */
  readonly userSettings?: Record<string, unknown>;
  /** User-scope MCP servers (`mcpServers` of ~/.claude.json): unlike a project's .mcp.json, they ask no "use this server?" question first. */
  readonly mcpServers?: Record<string, unknown>;
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

/** `~/.claude.json` past every first-run dialog of 2.1.328 to 2.1.332. */
export function claudeJson(o: { workDir: string; token: string; version: string; mcpServers?: Record<string, unknown> | undefined }): Record<string, unknown> {
  return {
    ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
    hasCompletedOnboarding: true,
    lastOnboardingVersion: o.version,
    lastReleaseNotesSeen: o.version,
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
    customApiKeyResponses: { approved: [o.token.slice(-20)], rejected: [] },
    projects: {
      [o.workDir]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, projectOnboardingSeenCount: 1, allowedTools: [] },
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
  const dirs = createEnvDirs({ prefix: opts.prefix ?? 'rec-claude-e2e-', baseDir: opts.baseDir, agentDir: '.claude' });
  const { baseDir, home, workDir, tmpDir } = dirs;
  const claudeDir = dirs.agentDir;
  execFileSync('git', ['init', '-q'], { cwd: workDir });
  writeFileSync(join(workDir, NOTES_FILE), NOTES_TEXT);
  writeFileSync(join(workDir, NOTEBOOK_FILE), NOTEBOOK_TEXT);
  writeFileSync(join(home, '.claude.json'), JSON.stringify(claudeJson({ workDir, token: opts.token, version: opts.version, mcpServers: opts.mcpServers }), null, 2), { mode: 0o600 });
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
  // The slug is the cwd with `/` replaced by `-`, but only that case was observed: glob.
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

// An isolated world for the real Gemini CLI: its own HOME (and TMPDIR) in a temp dir, settings that
// pick API-key auth and skip trust, auth, tips, update checks and usage statistics, a trusted work
// dir, and the model pointed at rec's mock Gemini API with a per-run key; plus a cleanup that stops
// every process Gemini started, by pid. No hooks: `rec gemini` wires its own. The e2e suites,
// `rec doctor gemini` and `rec demo gemini` all run Gemini in it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { userSystemSettingsPath } from '../systemSettingsLayer.js';
import { createEnvDirs, stopProcessTrees } from '../../../lab/envDirs.js';
import { EDIT_FILE } from '../../../lab/mock/googleGenerateContent/scenarios.js';

/** The model Gemini is set to ask for, and the mock answers as. */
export const GEMINI_MODEL = 'gemini-2.5-flash';
/** Where stray HTTP(S) traffic goes unless the caller names a guard: a loopback port nothing listens on (discard). */
const DEAD_PROXY = 'http://127.0.0.1:9';

export interface GeminiEnvOptions {
  /** GOOGLE_GEMINI_BASE_URL, e.g. `http://127.0.0.1:PORT` (the mock). */
  readonly baseUrl: string;
  /** GEMINI_API_KEY: the mock's per-run token. */
  readonly token: string;
  /** HTTP(S)_PROXY: the mock itself (its guard logs and refuses any escape), or a dead loopback port by default. */
  readonly proxyUrl?: string;
  /** A fixed base directory instead of a fresh temp dir (the fixture recorder uses one so paths are stable). */
  readonly baseDir?: string;
  /** The temp dir's name prefix (default `rec-gemini-`). */
  readonly prefix?: string;
  /** A folder with a `vim` to put first on PATH, Gemini's preferred editor then (for "Modify with external editor"). */
  readonly fakeEditorDir?: string;
  /** A one-tool MCP server script (node, stdio), configured as server `marker`. */
  readonly mcpServerScript?: string;
  /** `security.enablePermanentToolApproval`: the dialogs offer "Allow … for all future sessions". */
  readonly permanentToolApproval?: boolean;
}

export interface GeminiEnv {
  readonly baseDir: string;
  readonly home: string;
  /** The project dir Gemini runs in (trusted in ~/.gemini/trustedFolders.json; holds EDIT_FILE). */
  readonly workDir: string;
  /** Where Gemini keeps this project's chats: `~/.gemini/tmp/<slug>/chats` (the slug is the work dir's basename). */
  readonly chatsDir: string;
  /** The complete environment for the Gemini process (no inherited secrets or GOOGLE_* vars, no CI, proxies on loopback). */
  readonly env: NodeJS.ProcessEnv;
  /** The session files in chatsDir now, oldest first (Gemini deletes some at exit). */
  sessionFiles(): string[];
  /** Stops every descendant of `roots` (e.g. the pty's pid) and the roots, by pid. */
  stopProcesses(roots: readonly number[]): Promise<void>;
  /** stopProcesses, then removes the temp dir (unless it was a fixed baseDir). */
  dispose(roots?: readonly number[]): Promise<void>;
}

type SettingsOptions = Pick<GeminiEnvOptions, 'fakeEditorDir' | 'mcpServerScript' | 'permanentToolApproval'>;

function geminiSettings(opts: SettingsOptions = {}): Record<string, unknown> {
  return {
    ...(opts.mcpServerScript ? { mcpServers: { marker: { command: process.execPath, args: [opts.mcpServerScript] } } } : {}),
    security: {
      auth: { selectedType: 'gemini-api-key' },
      folderTrust: { enabled: true },
      ...(opts.permanentToolApproval ? { enablePermanentToolApproval: true } : {}),
    },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, ...(opts.fakeEditorDir ? { preferredEditor: 'vim' } : {}) },
    ui: { hideTips: true, hideBanner: true, showShortcutsHint: false },
    model: { name: GEMINI_MODEL, skipNextSpeakerCheck: true, disableLoopDetection: true },
    telemetry: { enabled: false },
  };
}

export function createGeminiEnv(opts: GeminiEnvOptions): GeminiEnv {
  const dirs = createEnvDirs({ prefix: opts.prefix ?? 'rec-gemini-', baseDir: opts.baseDir, agentDir: '.gemini' });
  const { baseDir, home, workDir } = dirs;
  const geminiDir = dirs.agentDir;
  writeFileSync(join(geminiDir, 'settings.json'), `${JSON.stringify(geminiSettings(opts), null, 2)}\n`, { mode: 0o600 });
  writeFileSync(join(geminiDir, 'trustedFolders.json'), `${JSON.stringify({ [workDir]: 'TRUST_FOLDER' }, null, 2)}\n`);
  writeFileSync(join(workDir, EDIT_FILE.name), EDIT_FILE.content);
  const proxy = opts.proxyUrl ?? DEAD_PROXY;

  const env: NodeJS.ProcessEnv = {
    PATH: `${opts.fakeEditorDir ? `${opts.fakeEditorDir}:` : ''}${process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
    HOME: home,
    USER: process.env.USER ?? 'root',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    // Gemini's shell tool and node itself write temp files; keep them inside the base dir.
    TMPDIR: dirs.tmpDir,
    GEMINI_API_KEY: opts.token,
    GOOGLE_GEMINI_BASE_URL: opts.baseUrl,
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    // Deliberately absent: CI (CI=true makes Gemini 0.61.0 run headless, with no dialogs at all:
    // isHeadlessMode in packages/core/src/utils/headless), GITHUB_ACTIONS (same), every GOOGLE_* and
    // GEMINI_* var of the host (auth, Vertex, system settings paths), NO_COLOR.
  };

  const chatsDir = join(geminiDir, 'tmp', 'work', 'chats');
  return {
    baseDir,
    home,
    workDir,
    chatsDir,
    env,
    sessionFiles: () => listSessionFiles(chatsDir),
    stopProcesses: stopProcessTrees,
    async dispose(roots = []) {
      await stopProcessTrees(roots);
      dirs.remove();
    },
  };
}

export function listSessionFiles(chatsDir: string): string[] {
  if (!existsSync(chatsDir)) return [];
  // Names start with the local date and time (session-YYYY-MM-DDTHH-MM-<id8>.jsonl): sorted is oldest first.
  return readdirSync(chatsDir)
    .filter((f) => /^session-.*\.jsonl?$/.test(f))
    .sort()
    .map((f) => join(chatsDir, f));
}

/** The settings of the system layer that would take isolation away: another login, telemetry or statistics sent out. */
const SystemSettings = z
  .object({
    security: z.object({ auth: z.unknown().optional() }).loose().optional(),
    telemetry: z.unknown().optional(),
    privacy: z.unknown().optional(),
  })
  .loose();

/**
 * Why Gemini cannot be isolated on this machine, in one line; undefined when it can. Gemini merges
 * the machine's system settings file over the user's (the temporary HOME's) ones, so one that picks
 * a login (`security.auth`), telemetry or usage statistics would win over the isolated world's.
 * The environment is the isolated one: a host GEMINI_CLI_SYSTEM_SETTINGS_PATH is not passed on.
 */
export function geminiIsolationProblem(env: NodeJS.ProcessEnv): string | undefined {
  const path = userSystemSettingsPath(env);
  if (!existsSync(path)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return `its system settings file ${path} cannot be read as JSON (${err instanceof Error ? err.message.split('\n')[0] : String(err)}), and Gemini would apply it over rec's`;
  }
  const parsed = SystemSettings.safeParse(raw);
  if (!parsed.success) return `its system settings file ${path} is not a settings object, and Gemini would apply it over rec's`;
  const set = [
    parsed.data.security?.auth !== undefined ? 'security.auth' : null,
    parsed.data.telemetry !== undefined ? 'telemetry' : null,
    parsed.data.privacy !== undefined ? 'privacy' : null,
  ].filter((k): k is string => k !== null);
  if (set.length === 0) return undefined;
  return `its system settings file ${path} sets ${set.join(', ')}, which Gemini applies over rec's isolated settings`;
}

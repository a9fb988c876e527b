// An isolated world for the real Gemini CLI: its own HOME (and TMPDIR) in a temp dir, settings that
// pick API-key auth and skip trust, auth, tips, update checks and usage statistics, a trusted work
// dir, and the model pointed at our mock Gemini API; plus a cleanup that stops every process Gemini
// started, by pid. No hooks: `rec gemini` wires its own.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EDIT_FILE } from '../../../src/lab/mock/geminiScenarios.js';
import { createEnvDirs, stopProcessTrees } from '../../../src/lab/envDirs.js';
import { agentBin } from '../shared/agentBin.js';

/** The prefix of each test world's temp dir (under the system temp dir). */
export const E2E_DIR_PREFIX = 'rec-gemini-e2e-';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const BIN = agentBin('gemini');
/** The pinned devDependency, or the one REC_E2E_GEMINI_BIN names; the e2e suite never uses a gemini from PATH. */
export const GEMINI_BIN = BIN.override ?? join(REPO_ROOT, 'node_modules/.bin/gemini');
/** The version under test: the devDependency pin (the newest verified version), or REC_E2E_GEMINI_BIN's own. */
export const GEMINI_VERSION = BIN.version;
/** The fake `vim` for "Modify with external editor": it changes "new line" to "edited line". */
const FAKE_EDITOR_DIR = join(REPO_ROOT, 'test', 'fakes', 'editor');
/** A one-tool MCP server over stdio (touch_marker). */
const MCP_SERVER = join(REPO_ROOT, 'test', 'fakes', 'mcp', 'markerServer.mjs');
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
  /**
   * Gemini's preferred editor is vim, and PATH leads first to the fake one (test/fakes/editor/vim),
   * for "Modify with external editor".
   */
  readonly fakeEditor?: boolean;
  /** Gemini gets the MCP server test/fakes/mcp/markerServer.mjs, as server `marker`. */
  readonly mcpServer?: boolean;
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
  /** The session files in chatsDir now, oldest first (Gemini deletes some at exit: see sessionSnapshots.ts). */
  sessionFiles(): string[];
  /** Stops every descendant of `roots` (e.g. the pty's pid) and the roots, by pid. */
  stopProcesses(roots: readonly number[]): Promise<void>;
  /** stopProcesses, then removes the temp dir (unless it was a fixed baseDir). */
  dispose(roots?: readonly number[]): Promise<void>;
}

export function geminiSettings(opts: { readonly fakeEditor?: boolean; readonly mcpServer?: boolean } = {}): Record<string, unknown> {
  return {
    ...(opts.mcpServer ? { mcpServers: { marker: { command: process.execPath, args: [MCP_SERVER] } } } : {}),
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: true } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, ...(opts.fakeEditor ? { preferredEditor: 'vim' } : {}) },
    ui: { hideTips: true, hideBanner: true, showShortcutsHint: false },
    model: { name: GEMINI_MODEL, skipNextSpeakerCheck: true, disableLoopDetection: true },
    telemetry: { enabled: false },
  };
}

export function createGeminiEnv(opts: GeminiEnvOptions): GeminiEnv {
  const dirs = createEnvDirs({ prefix: E2E_DIR_PREFIX, baseDir: opts.baseDir, agentDir: '.gemini' });
  const { baseDir, home, workDir } = dirs;
  const geminiDir = dirs.agentDir;
  const tmp = dirs.tmpDir;
  writeFileSync(join(geminiDir, 'settings.json'), `${JSON.stringify(geminiSettings(opts), null, 2)}\n`, { mode: 0o600 });
  writeFileSync(join(geminiDir, 'trustedFolders.json'), `${JSON.stringify({ [workDir]: 'TRUST_FOLDER' }, null, 2)}\n`);
  writeFileSync(join(workDir, EDIT_FILE.name), EDIT_FILE.content);
  const proxy = opts.proxyUrl ?? DEAD_PROXY;

  const env: NodeJS.ProcessEnv = {
    PATH: `${opts.fakeEditor ? `${FAKE_EDITOR_DIR}:` : ''}${process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
    HOME: home,
    USER: process.env.USER ?? 'root',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    // Gemini's shell tool and node itself write temp files; keep them inside the base dir.
    TMPDIR: tmp,
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
  const stopProcesses = stopProcessTrees;
  return {
    baseDir,
    home,
    workDir,
    chatsDir,
    env,
    sessionFiles: () => listSessionFiles(chatsDir),
    stopProcesses,
    async dispose(roots = []) {
      await stopProcesses(roots);
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

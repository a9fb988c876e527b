// rec's hooks for one Gemini run through the one settings layer a process environment can point
// elsewhere: Gemini CLI 0.61 reads its *system* settings from $GEMINI_CLI_SYSTEM_SETTINGS_PATH, else
// /etc/gemini-cli/settings.json (macOS: /Library/Application Support/GeminiCli/settings.json).
// What the 0.61.0 bundle does with that layer (packages/cli/src/config/settings.ts, read, not copied):
//   - it is merged last, over the system defaults, the user's and the workspace's settings; `hooks.<Event>`
//     arrays are concatenated across layers, so the user's own hooks keep running beside ours;
//   - hooks run unless the merged `hooksConfig.enabled` is false: we never set it, so a user who
//     turned hooks off gets none of ours either (rec then finds the chat file by scanning);
//   - the system-defaults file is looked for beside the system settings file unless
//     $GEMINI_CLI_SYSTEM_DEFAULTS_PATH says where: moving the one must pin the other;
//   - the file is skipped, with a "Security Warning" on Gemini's screen, unless it and every folder
//     above it are owned by root and not writable by group or others (isFileAndDirectorySecureSync).
// So the layer is written only where Gemini will take it: the per-run file holds the user's own
// system settings (if Gemini would have taken theirs) with rec's hooks added, and it is used only
// when it passes the same ownership check. Otherwise nothing is changed and rec finds the chat file
// by scanning (sessionLocator.ts). The user's files are only read.
import { lstatSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { platform } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';

export const SYSTEM_SETTINGS_ENV = 'GEMINI_CLI_SYSTEM_SETTINGS_PATH';
export const SYSTEM_DEFAULTS_ENV = 'GEMINI_CLI_SYSTEM_DEFAULTS_PATH';
/** The per-run layer's file name, in the folder rec chose for it. */
export const LAYER_FILE = 'gemini-system-settings.json';

/** Milliseconds Gemini waits for one of our hooks: `rec hook` only forwards the payload over loopback. */
export const HOOK_TIMEOUT_MS = 10_000;
/** The name our hooks carry in Gemini's "Executing Hooks: …" row and its hooksConfig.disabled list. */
export const HOOK_NAME = 'rec';

const Settings = z.record(z.string(), z.unknown());
const HookGroups = z.array(z.unknown());

/** The system settings file Gemini reads when rec does not step in. */
export function userSystemSettingsPath(env: NodeJS.ProcessEnv): string {
  const override = env[SYSTEM_SETTINGS_ENV];
  if (override) return override;
  if (platform() === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (platform() === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}

/** The system defaults file Gemini reads when rec does not step in. */
export function userSystemDefaultsPath(env: NodeJS.ProcessEnv): string {
  return env[SYSTEM_DEFAULTS_ENV] || join(dirname(userSystemSettingsPath(env)), 'system-defaults.json');
}

/**
 * Whether Gemini 0.61 takes a system settings file at `path`: it and each folder above it owned by
 * root and not writable by group or others (a missing file is taken, as empty).
 */
export function geminiTakesSystemFile(path: string): boolean {
  if (platform() === 'win32') return false; // Gemini checks ACLs there; rec does not try to.
  const secure = (p: string, dir: boolean): boolean => {
    try {
      const stats = statSync(p);
      if (dir !== stats.isDirectory()) return false;
      if (lstatSync(p).isSymbolicLink() && lstatSync(p).uid !== 0) return false;
      return stats.uid === 0 && (stats.mode & 0o022) === 0;
    } catch {
      return false;
    }
  };
  let dir = dirname(path);
  for (;;) {
    if (!secure(dir, true)) return false;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  try {
    statSync(path);
  } catch {
    return true;
  }
  return secure(path, false);
}

export type SystemLayer =
  | { readonly ok: true; readonly env: NodeJS.ProcessEnv; readonly file: string }
  | { readonly ok: false; readonly why: string };

/** The user's system settings as Gemini would take them: {} when it would skip or find none. */
function readUserSystemSettings(path: string): Record<string, unknown> | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    // None there: Gemini reads nothing either.
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? {} : `cannot read ${path}`;
  }
  if (!geminiTakesSystemFile(path)) return {}; // Gemini would skip it: copying it would put it in force.
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // Gemini strips comments before parsing; rather than guess at them, rec leaves the layer alone.
    return `${path} is not plain JSON`;
  }
  const parsed = Settings.safeParse(raw);
  return parsed.success ? parsed.data : `${path} is not a JSON object`;
}

/** The user's system settings with rec's hooks added for `events`. */
export function withRecHooks(settings: Record<string, unknown>, events: readonly string[], hookCommand: (event: string) => string): Record<string, unknown> {
  const hooks = Settings.safeParse(settings['hooks']);
  const merged: Record<string, unknown> = { ...(hooks.success ? hooks.data : {}) };
  for (const event of events) {
    const groups = HookGroups.safeParse(merged[event]);
    merged[event] = [...(groups.success ? groups.data : []), { hooks: [{ name: HOOK_NAME, type: 'command', command: hookCommand(event), timeout: HOOK_TIMEOUT_MS }] }];
  }
  return { ...settings, hooks: merged };
}

/**
 * Writes the per-run layer under `tempDir` and returns the environment that points Gemini at it, or
 * why it was not used (the environment then stays as it was).
 */
export function prepareSystemLayer(env: NodeJS.ProcessEnv, tempDir: string, events: readonly string[], hookCommand: (event: string) => string): SystemLayer {
  const file = join(tempDir, LAYER_FILE);
  if (!geminiTakesSystemFile(file)) return { ok: false, why: `Gemini would skip a system settings file in ${tempDir} (not root-owned, or a folder above it is writable by others)` };
  const own = readUserSystemSettings(userSystemSettingsPath(env));
  if (typeof own === 'string') return { ok: false, why: own };
  writeFileSync(file, JSON.stringify(withRecHooks(own, events, hookCommand), null, 2) + '\n', { mode: 0o644 });
  return { ok: true, file, env: { ...env, [SYSTEM_SETTINGS_ENV]: file, [SYSTEM_DEFAULTS_ENV]: userSystemDefaultsPath(env) } };
}

import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { prepareGeminiLaunch } from '../../../../src/agents/gemini/launch.js';
import {
  geminiTakesSystemFile,
  HOOK_NAME,
  prepareSystemLayer,
  SYSTEM_DEFAULTS_ENV,
  SYSTEM_SETTINGS_ENV,
  withRecHooks,
} from '../../../../src/agents/gemini/systemSettingsLayer.js';
import { makeRootOwnedDir, removeRootOwnedDirs, ROOT_OWNED_BASE } from '../../../support/rootOwnedDir.js';

const hookCommand = (event: string) => `/usr/bin/node /opt/rec/bin/rec.js hook gemini ${event}`;
const canSecure = ROOT_OWNED_BASE !== undefined;

/** Folders made for a test, removed after it. */
const made: string[] = [];
function secureDir(): string {
  const dir = makeRootOwnedDir();
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});
afterAll(() => removeRootOwnedDirs());

describe('the per-run Gemini system settings layer', () => {
  it('keeps every setting of the user\'s system layer and appends rec\'s hook after the user\'s own hooks', () => {
    const user = {
      security: { auth: { selectedType: 'gemini-api-key' } },
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'their-hook' }] }], AfterTool: [{ hooks: [{ type: 'command', command: 'x' }] }] },
    };
    expect(withRecHooks(user, ['SessionStart'], hookCommand)).toEqual({
      security: { auth: { selectedType: 'gemini-api-key' } },
      hooks: {
        SessionStart: [
          { hooks: [{ type: 'command', command: 'their-hook' }] },
          { hooks: [{ name: HOOK_NAME, type: 'command', command: hookCommand('SessionStart'), timeout: 10_000 }] },
        ],
        AfterTool: [{ hooks: [{ type: 'command', command: 'x' }] }],
      },
    });
  });

  it('is not used where Gemini 0.61 would skip it (a folder writable by others, as /tmp is): the launch is the user\'s, untouched', () => {
    const temp = mkdtempSync('/tmp/rec-gemini-launch-');
    try {
      expect(geminiTakesSystemFile(join(temp, 'settings.json'))).toBe(false);
      const env = { HOME: '/home/u', PATH: '/usr/bin' };
      const plan = prepareGeminiLaunch({ runId: 'r', args: ['--model', 'x', '-i', 'hi'], env, cwd: '/w', hookCommand, tempDir: temp });
      expect(plan.args).toEqual(['--model', 'x', '-i', 'hi']);
      expect(plan.env).toBe(env);
      expect(readdirSync(temp)).toEqual([]);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it.runIf(canSecure)('with /tmp as the run\'s temp folder, a folder of the run\'s own in a root-owned $XDG_RUNTIME_DIR carries the layer, and cleanup removes it', () => {
    const temp = mkdtempSync('/tmp/rec-gemini-launch-');
    const runtime = secureDir();
    try {
      const env = { HOME: '/home/u', XDG_RUNTIME_DIR: runtime };
      const plan = prepareGeminiLaunch({ runId: 'r1', args: ['-i', 'hi'], env, cwd: '/w', hookCommand, tempDir: temp });
      const file = join(runtime, 'rec-gemini-r1', 'gemini-system-settings.json');
      expect(plan.args).toEqual(['-i', 'hi']);
      expect(plan.env[SYSTEM_SETTINGS_ENV]).toBe(file);
      expect(geminiTakesSystemFile(file)).toBe(true);
      expect(JSON.parse(readFileSync(file, 'utf8')).hooks.SessionStart).toHaveLength(1);
      expect(readdirSync(temp)).toEqual([]);
      plan.cleanup?.();
      expect(readdirSync(runtime)).toEqual([]);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it('an $XDG_RUNTIME_DIR Gemini would not take (under /tmp) gets nothing written: the launch is the user\'s, untouched', () => {
    const temp = mkdtempSync('/tmp/rec-gemini-launch-');
    try {
      const env = { HOME: '/home/u', XDG_RUNTIME_DIR: temp };
      const plan = prepareGeminiLaunch({ runId: 'r2', args: [], env, cwd: '/w', hookCommand, tempDir: temp });
      expect(plan.env).toBe(env);
      expect(plan.cleanup).toBeUndefined();
      expect(readdirSync(temp)).toEqual([]);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it.runIf(canSecure)('where Gemini takes it: the user\'s system settings stay in force, the defaults file stays theirs, their files are only read', () => {
    const theirs = secureDir();
    const userSystem = join(theirs, 'settings.json');
    const userText = JSON.stringify({ general: { vimMode: true }, hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'audit' }] }] } });
    writeFileSync(userSystem, userText, { mode: 0o644 });
    const before = statSync(userSystem).mtimeMs;
    const runDir = secureDir();
    const env = { HOME: '/home/u', [SYSTEM_SETTINGS_ENV]: userSystem };
    const layer = prepareSystemLayer(env, runDir, ['SessionStart'], hookCommand);
    expect(layer.ok).toBe(true);
    if (!layer.ok) return;
    expect(layer.env[SYSTEM_SETTINGS_ENV]).toBe(join(runDir, 'gemini-system-settings.json'));
    // Gemini looks for system-defaults.json beside the system file unless told: it stays the user's.
    expect(layer.env[SYSTEM_DEFAULTS_ENV]).toBe(join(theirs, 'system-defaults.json'));
    expect(JSON.parse(readFileSync(layer.file, 'utf8'))).toEqual({
      general: { vimMode: true },
      hooks: {
        BeforeTool: [{ hooks: [{ type: 'command', command: 'audit' }] }],
        SessionStart: [{ hooks: [{ name: HOOK_NAME, type: 'command', command: hookCommand('SessionStart'), timeout: 10_000 }] }],
      },
    });
    expect(geminiTakesSystemFile(layer.file)).toBe(true);
    expect(readFileSync(userSystem, 'utf8')).toBe(userText);
    expect(statSync(userSystem).mtimeMs).toBe(before);
    expect(readdirSync(theirs)).toEqual(['settings.json']);
  });

  it.runIf(canSecure)('a user system file Gemini itself would skip (writable by others) is not put in force by copying it', () => {
    const theirs = secureDir();
    const userSystem = join(theirs, 'settings.json');
    writeFileSync(userSystem, JSON.stringify({ general: { vimMode: true } }));
    chmodSync(userSystem, 0o666);
    const layer = prepareSystemLayer({ [SYSTEM_SETTINGS_ENV]: userSystem }, secureDir(), ['SessionStart'], hookCommand);
    expect(layer.ok).toBe(true);
    if (layer.ok) expect(JSON.parse(readFileSync(layer.file, 'utf8'))).not.toHaveProperty('general');
  });

  it.runIf(canSecure)('a user system file with comments (JSONC) is not guessed at: no layer, Gemini starts bare', () => {
    const theirs = secureDir();
    const userSystem = join(theirs, 'settings.json');
    writeFileSync(userSystem, '{ // mine\n "general": {} }', { mode: 0o644 });
    const runDir = secureDir();
    expect(prepareSystemLayer({ [SYSTEM_SETTINGS_ENV]: userSystem }, runDir, ['SessionStart'], hookCommand)).toMatchObject({ ok: false });
    expect(readdirSync(runDir)).toEqual([]);
  });
});

import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
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

const hookCommand = (event: string) => `/usr/bin/node /opt/rec/bin/rec.js hook gemini ${event}`;
const isRoot = process.getuid?.() === 0;

/**
 * Where Gemini's ownership rule can hold: a folder root-owned and not group- or world-writable all
 * the way up from /. /tmp and /var/tmp never qualify; the repository's own tree does in a clone
 * outside them; root's home and /var/lib do on any machine where the suite runs as root.
 */
const SECURE_BASE = isRoot ? [join(process.cwd(), 'test'), homedir(), '/var/lib'].find((c) => geminiTakesSystemFile(join(c, 'probe.json'))) : undefined;
const canSecure = SECURE_BASE !== undefined;

/** Folders made under SECURE_BASE (0755), removed after each test. */
const made: string[] = [];
function secureDir(): string {
  const base = join(SECURE_BASE!, '.tmp-rec-gemini-launch');
  mkdirSync(base, { recursive: true, mode: 0o755 });
  chmodSync(base, 0o755);
  const dir = mkdtempSync(join(base, 'run-'));
  chmodSync(dir, 0o755);
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});
afterAll(() => {
  if (SECURE_BASE) rmSync(join(SECURE_BASE, '.tmp-rec-gemini-launch'), { recursive: true, force: true });
});

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

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAUDE_HOOK_EVENTS } from '../../../../src/agents/claude/hookSettings.js';
import { CLAUDE_SESSION_ENV, prepareClaudeLaunch } from '../../../../src/agents/claude/launch.js';
import { readClaudeArgs } from '../../../../src/agents/claude/launchArgs.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-claude-launch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hookCommand = (event: string) => `/usr/bin/node /opt/rec/bin/rec.js hook claude ${event}`;
const UUID = '11111111-2222-4333-8444-555555555555';
const launch = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  prepareClaudeLaunch({ runId: 'r', args, env, cwd: dir, hookCommand, tempDir: dir }, { newSessionId: () => UUID });

const settingsOf = (args: readonly string[]) => JSON.parse(args[args.indexOf('--settings') + 1]!) as { hooks: Record<string, unknown[]>; [k: string]: unknown };
const ourGroup = (event: string) => ({ hooks: [{ type: 'command', command: hookCommand(event), timeout: 10 }] });

describe('rec claude: the launch', () => {
  it('adds a session id and rec’s hooks in front; the user’s arguments follow untouched', () => {
    const plan = launch(['--model', 'opus', 'fix the bug']);
    expect(plan.args.slice(0, 2)).toEqual(['--session-id', UUID]);
    expect(plan.args[2]).toBe('--settings');
    expect(plan.args.slice(4)).toEqual(['--model', 'opus', 'fix the bug']);
    expect(plan.env[CLAUDE_SESSION_ENV]).toBe(UUID);
    const settings = settingsOf(plan.args);
    expect(Object.keys(settings.hooks)).toEqual([...CLAUDE_HOOK_EVENTS]);
    expect(settings.hooks.PreToolUse).toEqual([ourGroup('PreToolUse')]);
  });

  it('keeps the session id the user chose, and adds none for --resume / --continue (hooks name the session then)', () => {
    const chosen = launch(['--session-id', 'abc']);
    expect(chosen.args.filter((a) => a === '--session-id')).toHaveLength(1);
    expect(chosen.env[CLAUDE_SESSION_ENV]).toBe('abc');
    expect(launch(['--session-id=abc']).env[CLAUDE_SESSION_ENV]).toBe('abc');
    for (const args of [['--resume'], ['-r', 'abc'], ['--continue'], ['-c']]) {
      const plan = launch(args);
      expect(plan.args).not.toContain('--session-id');
      expect(plan.env[CLAUDE_SESSION_ENV]).toBeUndefined();
      expect(plan.args).toContain('--settings');
    }
  });

  it('merges rec’s hooks into the user’s inline --settings, in its place, the user’s hooks first', () => {
    const user = { model: 'sonnet', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-guard' }] }] } };
    const plan = launch(['--settings', JSON.stringify(user), 'hi']);
    expect(plan.args.filter((a) => a === '--settings')).toHaveLength(1);
    expect(plan.args.slice(-1)).toEqual(['hi']);
    const settings = settingsOf(plan.args);
    expect(settings.model).toBe('sonnet');
    expect(settings.hooks.PreToolUse).toEqual([user.hooks.PreToolUse[0], ourGroup('PreToolUse')]);
    expect(settings.hooks.Stop).toEqual([ourGroup('Stop')]);
  });

  it('merges into a --settings=<json> token as such', () => {
    const plan = launch(['--settings={"tui":"default"}']);
    const token = plan.args.find((a) => a.startsWith('--settings='))!;
    const settings = JSON.parse(token.slice('--settings='.length)) as { tui: string; hooks: Record<string, unknown> };
    expect(settings.tui).toBe('default');
    expect(Object.keys(settings.hooks)).toContain('PermissionRequest');
  });

  it('reads a --settings file (relative to the cwd) without writing it, and passes the merge inline', () => {
    const file = join(dir, 'my-settings.json');
    const text = JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } });
    writeFileSync(file, text);
    const plan = launch(['--settings', 'my-settings.json']);
    expect(settingsOf(plan.args).permissions).toEqual({ allow: ['Bash(ls:*)'] });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('leaves an unreadable --settings of the user’s as it is, adds no hooks, and says why', () => {
    const plan = launch(['--settings', 'missing.json']);
    expect(plan.args).toEqual(['--session-id', UUID, '--settings', 'missing.json']);
    expect(plan.notes[0]).toMatch(/cannot read --settings file missing\.json/);
    expect(launch(['--settings', '{not json']).notes[0]).toMatch(/not JSON/);
  });

  it('leaves subcommands, --version and --help untouched, and what follows `--`', () => {
    for (const args of [['mcp', 'list'], ['doctor'], ['--version'], ['-h']]) expect(launch(args).args).toEqual(args);
    expect(readClaudeArgs(['--', '--settings', 'x'])).toEqual({ noSession: false, resumes: false });
  });
});

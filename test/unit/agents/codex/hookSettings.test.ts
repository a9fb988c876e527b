import { describe, expect, it } from 'vitest';
import { codexHookArgs, codexHookHash, codexHookStateKey } from '../../../../src/agents/codex/hookSettings.js';
import { prepareCodexLaunch } from '../../../../src/agents/codex/launch.js';

const hookCommand = (event: string) => `/usr/bin/node /opt/rec/bin/rec.js hook codex ${event}`;

describe('codex hooks for this run only', () => {
  it('adds each hook as a -c override and trusts exactly those hooks by their hash', () => {
    const args = codexHookArgs(hookCommand);
    expect(args.filter((a) => a === '-c')).toHaveLength(7);
    expect(args[1]).toBe('hooks.SessionStart=[{hooks=[{type="command",command="/usr/bin/node /opt/rec/bin/rec.js hook codex SessionStart",timeout=10}]}]');
    const state = args[args.length - 1]!;
    expect(state.startsWith('hooks.state={"/<session-flags>/config.toml:session_start:0:0"={trusted_hash="sha256:')).toBe(true);
    expect(state).toContain(`"${codexHookStateKey('PreToolUse')}"={trusted_hash="${codexHookHash({ event: 'PreToolUse', command: hookCommand('PreToolUse'), timeoutSec: 10 })}"}`);
  });

  it('hashes the normalized hook definition the way Codex 0.169.0 does', () => {
    // sha256 of {"event_name":"stop","hooks":[{"async":false,"command":"echo hi","timeout":10,"type":"command"}]}
    // (sorted keys, compact, None fields dropped). Hashes made this way were accepted by the real
    // codex 0.169.0: with them the "Hooks need review" screen stays away and the hooks run.
    expect(codexHookHash({ event: 'Stop', command: 'echo hi', timeoutSec: 10 })).toBe(
      'sha256:2a05b889a7ae70a6cb043aabb2bcfb6ce36c120c3e60d0fd65e4d297c36f1e00',
    );
  });

  it('by default passes the user arguments untouched (no -c: Codex stays on its shared daemon)', () => {
    const ctx = { runId: 'r', args: ['resume', '--last'], env: {}, cwd: '/', hookCommand, tempDir: '/tmp' };
    expect(prepareCodexLaunch(ctx).args).toEqual(['resume', '--last']);
    expect(prepareCodexLaunch({ ...ctx, env: { REC_CODEX_HOOKS: '0' } }).args).toEqual(['resume', '--last']);
  });

  it('REC_CODEX_HOOKS=1 opts in: the overrides come first, the user arguments keep their place after them', () => {
    const ctx = { runId: 'r', args: ['resume', '--last'], env: { REC_CODEX_HOOKS: '1' }, cwd: '/', hookCommand, tempDir: '/tmp' };
    const args = prepareCodexLaunch(ctx).args;
    expect(args[0]).toBe('-c');
    expect(args.slice(-2)).toEqual(['resume', '--last']);
  });
});

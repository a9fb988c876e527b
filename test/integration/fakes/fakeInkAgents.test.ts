// fake-claude and fake-gemini under a real pty: their dialogs render with the real texts, keys do
// what they do in Claude Code 2.1.328 and Gemini CLI 0.61.0, and the session files get the real shapes.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from '../../../src/lab/spawn.js';
import { fakeScript, findFiles, makeSandbox, readJsonl, rows, sandboxPerTest, startFake, waitFor } from '../../support/fakeKit.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';

const fx = sandboxPerTest();

const start = (agent: 'claude' | 'gemini', scenario: string, args: string[] = []) => startFake(fx, agent, scenario, args, { cols: 120, rows: 45 });

const REJECT_STOP = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

describe('fake-claude 2.1.328', () => {
  const sessionId = '11111111-2222-4333-8444-555555555555';
  const transcript = () => join(fx.box.home, '.claude', 'projects', fx.box.work.replace(/[^a-zA-Z0-9]/g, '-'), `${sessionId}.jsonl`);
  const linesWith = (pred: (r: any) => boolean, what: string) => waitFor(() => (readJsonl(transcript()).some(pred) ? readJsonl(transcript()) : undefined), what);
  const toolResults = (recs: any[]) => recs.filter((r) => Array.isArray(r.message?.content) && r.message.content[0]?.type === 'tool_result');

  it('draws the Bash dialog with its options and footer', async () => {
    const p = await start('claude', 'shell', ['--session-id', sessionId]);
    const screen = rows(await p.expectScreen('Esc to cancel · Tab to amend'));
    expect(screen).toContain(' Bash command');
    expect(screen).toContain(' touch shell_marker.txt');
    expect(screen).toContain(' Do you want to proceed?');
    expect(screen).toContain(' ❯ 1. Yes');
    expect(screen).toContain('   2. Yes, and don’t ask again for: touch *');
    expect(screen).toContain('   3. Yes, and switch to auto mode · auto mode handles these prompts for you');
    expect(screen).toContain('   4. No');
  });

  it.each([['4', '4'], ['Esc', '\x1b']])('%s rejects: REJECT_STOP before run, then the interrupt line', async (_n, key) => {
    const p = await start('claude', 'shell', ['--session-id', sessionId]);
    await p.expectScreen('Do you want to proceed?');
    p.send(key);
    const screen = await p.expectScreen('Interrupted · What should Claude do instead?');
    expect(screen).toContain('Did not run 1 call');
    const recs = await linesWith((r) => r.message?.content?.[0]?.text === '[Request interrupted by user for tool use]', 'interrupt line');
    const [res] = toolResults(recs);
    expect(res.message.content[0]).toMatchObject({ content: REJECT_STOP, is_error: true });
    expect(res).toMatchObject({ toolUseResult: 'User rejected tool use', toolDenialKind: 'user-rejected', toolDenialBeforeRun: true });
    expect(res.permissionDecision).toBeUndefined();
    expect(existsSync(join(fx.box.work, 'shell_marker.txt'))).toBe(false);
  });

  it('Ctrl+C at the dialog is ignored; 1 then approves once', async () => {
    const p = await start('claude', 'shell', ['--session-id', sessionId]);
    await p.expectScreen('Do you want to proceed?');
    p.send('\x03\x03');
    p.send('1');
    await p.expectScreen('Ran 1 shell command');
    const recs = await linesWith((r) => r.type === 'system', 'turn_duration');
    const [res] = toolResults(recs);
    expect(res.permissionDecision).toEqual({ decision: 'accept', source: 'user_temporary', grantScope: 'once', reasonCode: 'unknown' });
    expect(existsSync(join(fx.box.work, 'shell_marker.txt'))).toBe(true);
  });

  it('Tab on No, a reason and Enter: rejection with userFeedback, and the turn goes on', async () => {
    const p = await start('claude', 'shell', ['--session-id', sessionId]);
    await p.expectScreen('Do you want to proceed?');
    p.send('\x1b[B\x1b[B\x1b[B');
    await p.expectScreen(' ❯ 4. No');
    p.send('\t');
    await p.expectScreen(' ❯ 4. No, and tell Claude what to do differently');
    p.send('use printf instead');
    await p.expectScreen(' ❯ 4. No, use printf instead');
    p.send('\r');
    await p.expectScreen('Not run · rejected');
    const recs = await linesWith((r) => r.type === 'system', 'turn_duration');
    const [res] = toolResults(recs);
    expect(res).toMatchObject({ userFeedback: 'use printf instead', holdsPersonsWords: true, permissionDecision: { decision: 'reject', source: 'user_reject' } });
  });

  it('Esc while the approved command runs: no toolDenialBeforeRun, interruptedMessageId set', async () => {
    const p = await start('claude', 'sleep', ['--session-id', sessionId]);
    await p.expectScreen('Do you want to proceed?');
    p.send('1');
    await p.expectScreen('esc to interrupt');
    p.send('\x1b');
    await p.expectScreen('No result recorded for 1 call');
    const recs = await linesWith((r) => r.interruptedMessageId, 'interrupt line');
    const [res] = toolResults(recs);
    expect(res.toolDenialBeforeRun).toBeUndefined();
    expect(res.toolDenialKind).toBe('user-rejected');
  });
});

describe('fake-gemini 0.61.0', () => {
  const sessionFile = () => waitFor(() => findFiles(join(fx.box.home, '.gemini', 'tmp'), /^session-.*\.jsonl$/)[0], 'the session file');
  const toolCalls = (recs: any[]) => recs.filter((r) => r.toolCalls).at(-1)?.toolCalls ?? [];

  it('draws the shell confirmation box', async () => {
    const p = await start('gemini', 'shell');
    const screen = rows(await p.expectScreen('No, suggest changes (esc)'));
    expect(screen.some((l) => /^│ \? Shell {2}touch shell_marker\.txt\s+│$/.test(l))).toBe(true);
    expect(screen.some((l) => /^│ Allow execution of \[Shell\]\?\s+│$/.test(l))).toBe(true);
    expect(screen.some((l) => /^│ ● 1\. Allow once\s+│$/.test(l))).toBe(true);
    expect(screen.some((l) => /^│ {3}2\. Allow for this session\s+│$/.test(l))).toBe(true);
  });

  it('Esc: cancelled "User denied execution.", Request cancelled, the turn rolled back, the file deleted at exit', async () => {
    const p = await start('gemini', 'shell');
    await p.expectScreen('Allow execution of [Shell]?');
    p.send('\x1b');
    await p.expectScreen('ℹ Request cancelled.');
    const file = await sessionFile();
    const recs = await waitFor(() => (readJsonl(file).some((r) => r.$set?.messages?.[0]?.content?.length === 2) ? readJsonl(file) : undefined), 'rollback');
    const [tc] = toolCalls(recs);
    expect(tc).toMatchObject({ name: 'run_shell_command', status: 'cancelled' });
    expect(tc.id).toMatch(/^run_shell_command__run_shell_command_\d+_0$/);
    expect(tc.result[0].functionResponse.response).toEqual({ error: '[Operation Cancelled] Reason: User denied execution.' });
    expect(recs.some((r) => r.type === 'info' && r.content === 'Request cancelled.')).toBe(true);
    p.send('/quit\r');
    expect((await p.expectExit()).exitCode).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('Down Down Enter denies like Esc; Ctrl+C instead cancels "by user" and arms exit', async () => {
    let p = await start('gemini', 'shell');
    await p.expectScreen('● 1. Allow once');
    p.send('\x1b[B\x1b[B');
    await p.expectScreen(/● 3\. No, suggest changes \(esc\)/);
    p.send('\r');
    await p.expectScreen('ℹ Request cancelled.');
    let recs = readJsonl(await sessionFile());
    expect(toolCalls(recs)[0].result[0].functionResponse.response.error).toBe('[Operation Cancelled] Reason: User denied execution.');
    p.dispose();
    fx.box.cleanup();
    fx.box = makeSandbox();
    p = await start('gemini', 'shell');
    await p.expectScreen('Allow execution of [Shell]?');
    p.send('\x03');
    await p.expectScreen('Press Ctrl+C again to exit.');
    recs = await waitFor(() => { const r = readJsonl(findFiles(join(fx.box.home, '.gemini', 'tmp'), /\.jsonl$/)[0] ?? ''); return toolCalls(r).length ? r : undefined; }, 'tool calls');
    expect(toolCalls(recs)[0].result[0].functionResponse.response.error).toBe('[Operation Cancelled] Reason: Operation cancelled by user');
  });

  it('Enter approves: success with the output; the session survives exit', async () => {
    const p = await start('gemini', 'shell');
    await p.expectScreen('Allow execution of [Shell]?');
    p.send('\r');
    await p.expectScreen(/✓ {2}Shell touch shell_marker\.txt/);
    const file = await sessionFile();
    const recs = await waitFor(() => (readJsonl(file).some((r) => r.type === 'gemini' && r.content) ? readJsonl(file) : undefined), 'final answer');
    expect(toolCalls(recs)[0]).toMatchObject({ status: 'success' });
    p.send('/quit\r');
    await p.expectExit();
    expect(readFileSync(file, 'utf8').length).toBeGreaterThan(0);
    expect(existsSync(join(fx.box.work, 'shell_marker.txt'))).toBe(true);
  });
});

describe('test/fakes/bin launchers', () => {
  it.each([...AGENT_NAMES])('%s on PATH runs fake-%s', async (agent) => {
    const bin = join(fakeScript(agent), '..', 'bin');
    fx.proc = spawn(agent, [], { cwd: fx.box.work, env: { ...fx.box.env, PATH: `${bin}:${process.env.PATH}` } });
    await fx.proc.expect(`fake-${agent} ready`);
    fx.proc.send('/quit\r');
    expect((await fx.proc.expectExit()).exitCode).toBe(0);
  });
});

// fake-claude, fake-gemini and fake-copilot under a real pty: their dialogs render with the real
// texts, keys do what they do in Claude Code 2.1.328, Gemini CLI 0.61.0 and GitHub Copilot CLI
// 1.0.102, and the session files get the real shapes.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from '../../../src/lab/spawn.js';
import { parseCopilotScreen } from '../../../src/agents/copilot/screenParser.js';
import { LATEST_COPILOT_STRINGS } from '../../../src/agents/copilot/strings/index.js';
import { fakeScript, findFiles, makeSandbox, readJsonl, rows, sandboxPerTest, startFake, waitFor } from '../../support/fakeKit.js';
import { readEventsFile } from '../../support/copilot/readEvents.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';

const fx = sandboxPerTest();

const start = (agent: 'claude' | 'gemini' | 'copilot', scenario: string, args: string[] = []) => startFake(fx, agent, scenario, args, { cols: 120, rows: 45 });

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

describe('fake-copilot 1.0.102', () => {
  const MARKER_CMD = 'echo fake-copilot-ran > shell_marker.txt';
  const REASON = 'please use printf instead';
  const sessionRoot = () => join(fx.box.env.COPILOT_HOME ?? join(fx.box.home, '.copilot'), 'session-state');
  const eventsFile = () => waitFor(() => findFiles(sessionRoot(), /^events\.jsonl$/)[0], 'events.jsonl');
  /** Waits until events.jsonl holds a line of `type` (matching `pred`), and returns every line. */
  const eventsWith = async (type: string, pred: (d: any) => boolean = () => true) => {
    const file = await eventsFile();
    return waitFor(() => (readJsonl(file).some((r) => r.type === type && pred(r.data)) ? readJsonl(file) : undefined), type);
  };
  const ofType = (recs: any[], type: string) => recs.filter((r) => r.type === type).map((r) => r.data);
  /** What rec's screen parser reads of the fake's screen, once it reads a prompt. */
  const promptRead = (p: { screen(): string }) =>
    waitFor(() => parseCopilotScreen({ cols: 120, rows: 45, lines: p.screen().split('\n'), styles: [], cursor: { x: 0, y: 0 }, seq: 0 }, LATEST_COPILOT_STRINGS).prompt, 'a prompt rec reads');
  const start = (scenario: string) => {
    delete fx.box.env.COPILOT_HOME;
    return startFake(fx, 'copilot', scenario, [], { cols: 120, rows: 45 });
  };

  it('--version prints 1.0.102', () => {
    expect(execFileSync(process.execPath, [fakeScript('copilot'), '--version'], { encoding: 'utf8' })).toBe("GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check for updates.\n");
  });

  it('draws the shell prompt box at the bottom, which rec reads; the session folder is locked from the start', async () => {
    const p = await start('shell');
    const prompt = await promptRead(p);
    expect(prompt).toMatchObject({ kind: 'command', title: 'Create a marker file', command: MARKER_CMD, question: 'Do you want to run this command?', highlighted: 1 });
    expect(prompt.options.map((o) => o.label)).toEqual(['Yes', 'No, and tell Copilot what to do differently (Esc to stop)']);
    const screen = rows(p.screen());
    expect(screen.at(-1)).toMatch(/^╰─+╯$/);
    expect(screen).toContain(' $ Shell Create a marker file');
    expect(screen.some((l) => /^│ ↑\/↓ to navigate · enter to select · esc to cancel +│$/.test(l))).toBe(true);
    const recs = await eventsWith('permission.requested');
    expect(recs.map((r) => r.type)).toEqual(['session.start', 'session.model_change', 'user.message', 'assistant.turn_start', 'assistant.message', 'tool.execution_start', 'permission.requested']);
    recs.forEach((r, i) => expect(r.parentId).toBe(i === 0 ? null : recs[i - 1].id));
    const [call] = ofType(recs, 'assistant.message')[0].toolRequests;
    expect(call).toMatchObject({ name: 'bash', arguments: { command: MARKER_CMD, description: 'Create a marker file' } });
    expect(ofType(recs, 'permission.requested')[0]).toMatchObject({ permissionRequest: { kind: 'shell', toolCallId: call.toolCallId, fullCommandText: MARKER_CMD }, promptRequest: { kind: 'commands' } });
    const dir = join(await eventsFile(), '..');
    expect(readdirSync(dir)).toContain(`inuse.${fx.proc!.pid}.lock`);
  });

  it('1 approves: approved by human_response, the command runs, and rec reads an approval that ran', async () => {
    const p = await start('shell');
    await promptRead(p);
    p.send('1');
    await p.expectScreen('MOCK FINAL: received 1 tool result(s)');
    expect(rows(p.screen())).toContain(' $ Shell Create a marker file No Content');
    const recs = await eventsWith('assistant.turn_end', (d) => d.turnId === '1');
    expect(ofType(recs, 'permission.completed')).toEqual([expect.objectContaining({ result: { kind: 'approved' }, decisionSource: 'human_response' })]);
    expect(ofType(recs, 'tool.execution_complete')[0]).toMatchObject({ success: true, result: { content: '\n<shellId: 0 completed with exit code 0>' } });
    expect(readFileSync(join(fx.box.work, 'shell_marker.txt'), 'utf8')).toBe('fake-copilot-ran\n');
    const session = await readEventsFile(await eventsFile());
    expect(session.findings).toEqual([expect.objectContaining({ type: 'approval', scope: 'once', decided_by: 'user', ran: 'yes' })]);
  });

  it('2 opens the text field; typed text and Enter refuse with that feedback, and the turn goes on', async () => {
    const p = await start('shell');
    await promptRead(p);
    p.send('2');
    await p.expectScreen('│ ❯ 2. No, and tell Copilot what to do differently (Esc to stop)');
    p.send('\r'); // Enter on the empty field does nothing
    p.send(REASON);
    await p.expectScreen(`│ ❯ 2. ${REASON} (Esc to stop)`);
    expect((await promptRead(p)).feedback).toEqual({ typed: true });
    p.send('\r');
    await p.expectScreen('MOCK FINAL: received 1 tool result(s)');
    expect(rows(p.screen())).toContain(` ✗ Shell Create a marker file The user rejected this tool call. User feedback: ${REASON}`);
    const recs = await eventsWith('assistant.turn_end', (d) => d.turnId === '1');
    expect(ofType(recs, 'permission.completed')).toEqual([expect.objectContaining({ result: { kind: 'denied-interactively-by-user', feedback: REASON }, decisionSource: 'human_response' })]);
    expect(ofType(recs, 'tool.execution_complete')[0]).toMatchObject({ success: false, error: { code: 'denied', message: `The user rejected this tool call. User feedback: ${REASON}` } });
    expect(ofType(recs, 'abort')).toEqual([]);
    expect(existsSync(join(fx.box.work, 'shell_marker.txt'))).toBe(false);
    const session = await readEventsFile(await eventsFile());
    expect(session.findings).toEqual([expect.objectContaining({ type: 'rejection', kind: 'command', decided_by: 'user', reason: REASON, reason_source: 'inline', ran: 'no' })]);
  });

  it('Esc cancels the prompt and the turn: "Session aborted", abort user_initiated, no completion', async () => {
    const p = await start('shell');
    await promptRead(p);
    p.send('\x1b');
    await p.expectScreen('● Operation cancelled by user');
    const screen = rows(p.screen());
    expect(screen).toContain(' ✗ Shell Create a marker file Operation aborted by user');
    expect(screen).toContain('     └ - Confirmation cancelled for shell command');
    const recs = await eventsWith('abort');
    expect(recs.slice(-3).map((r) => [r.type, r.data])).toEqual([
      ['permission.completed', expect.objectContaining({ result: { kind: 'cancelled', reason: 'Session aborted' } })],
      ['assistant.turn_end', { turnId: '0' }],
      ['abort', { reason: 'user_initiated' }],
    ]);
    expect(ofType(recs, 'permission.completed')[0].decisionSource).toBeUndefined();
    expect(ofType(recs, 'tool.execution_complete')).toEqual([]);
    expect(existsSync(join(fx.box.work, 'shell_marker.txt'))).toBe(false);
    const session = await readEventsFile(await eventsFile());
    expect(session.findings).toEqual([expect.objectContaining({ type: 'rejection', kind: 'command', decided_by: 'user', ran: 'no' })]);
  });

  it('the create prompt under COPILOT_HOME: rec reads it, 1 creates the file', async () => {
    fx.box.env.COPILOT_HOME = join(fx.box.root, 'copilot-home');
    const p = await startFake(fx, 'copilot', 'write', [], { cols: 120, rows: 45 });
    const path = join(fx.box.work, 'new_file.txt');
    const prompt = await promptRead(p);
    expect(prompt).toMatchObject({ kind: 'edit', title: 'Create file', question: `Do you want to create ${path}?`, details: { file: 'new_file.txt', diff: '1 +   hello\n2 +   world' } });
    expect(prompt.options.map((o) => o.label)).toEqual(['Yes', `Yes, and don't ask again for file operations when in this repo (${fx.box.work})`, 'No, and tell Copilot what to do differently (Esc to stop)']);
    p.send('1');
    await p.expectScreen(' ● Create new_file.txt +2');
    const recs = await eventsWith('tool.execution_complete');
    expect(ofType(recs, 'permission.requested')[0].permissionRequest).toMatchObject({ kind: 'write', fileName: path, newFileContents: 'hello\nworld\n' });
    expect(ofType(recs, 'tool.execution_complete')[0]).toMatchObject({ success: true, result: { content: `Created file ${path} with 12 characters` } });
    expect(readFileSync(path, 'utf8')).toBe('hello\nworld\n');
  });

  it('Esc twice while the approved command runs cuts it: abort user_abort; /quit prints the resume line', async () => {
    const p = await start('sleep');
    const prompt = await promptRead(p);
    expect(prompt.options.map((o) => o.label)[1]).toBe(`Yes, and don't ask again for \`sleep\` in this repo (${fx.box.work})`);
    p.send('1');
    await p.expectScreen('esc esc interrupt');
    p.send('\x1b');
    await p.expectScreen('esc again to interrupt');
    p.send('\x1b');
    await p.expectScreen(' ✗ Shell Wait 30 seconds Operation aborted by user');
    const recs = await eventsWith('abort');
    expect(ofType(recs, 'abort')).toEqual([{ reason: 'user_abort' }]);
    expect(ofType(recs, 'tool.execution_complete')).toEqual([]);
    const sessionId = ofType(recs, 'session.start')[0].sessionId;
    p.send('/quit\r');
    await p.expectScreen(`copilot --resume=${sessionId}`);
    expect((await p.expectExit()).exitCode).toBe(0);
    expect(readdirSync(join(await eventsFile(), '..')).filter((n) => n.startsWith('inuse.'))).toEqual([]);
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

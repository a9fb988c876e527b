// fake-codex run directly under a real pty (node-pty) with a rendered screen (@xterm/headless):
// it must draw Codex 0.169.0's prompts verbatim, react to keys as Codex does, and write the
// rollout in Codex's shapes. These are the behaviours the Codex adapter's integration tests rely on.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from '../../../src/lab/spawn.js';
import { fakeScript, findFiles, readJsonl, rows, sandboxPerTest, startFake, waitFor } from '../../support/fakeKit.js';

const fx = sandboxPerTest();

const start = (scenario: string, opts: { cols?: number; rows?: number; args?: string[] } = {}) =>
  startFake(fx, 'codex', scenario, opts.args ?? [], { cols: opts.cols ?? 120, rows: opts.rows ?? 40 });

const rolloutFile = () => waitFor(() => findFiles(join(fx.box.codexHome, 'sessions'), /^rollout-.*\.jsonl$/)[0], 'the rollout file');
const records = async () => readJsonl(await rolloutFile());
const payloads = (recs: any[], type: string) => recs.filter((r) => r.payload?.type === type).map((r) => r.payload);
/** Waits until the rollout holds a record matching `pred`. */
async function rolloutHas(pred: (r: any) => boolean, what: string) {
  const file = await rolloutFile();
  return waitFor(() => (readJsonl(file).some(pred) ? readJsonl(file) : undefined), what);
}
const ABORTED = /^Wall time: \d+\.\d seconds\naborted by user$/;

describe('fake-codex 0.169.0, exec approval prompt', () => {
  it('draws the prompt with the exact texts and the highlighted first option', async () => {
    const p = await start('shell');
    const screen = rows(await p.expectScreen('Press enter to confirm or esc to cancel'));
    const cmd = `echo hello > ${fx.box.work}/approved.txt && cat ${fx.box.work}/approved.txt`;
    expect(screen).toContain('  Would you like to run the following command?');
    expect(screen).toContain('  Environment: local');
    expect(screen).toContain('  Reason: Write approved.txt in the workspace?');
    expect(screen).toContain(`  $ ${cmd}`);
    expect(screen).toContain('› 1. Yes, proceed (y)');
    expect(screen.some((l) => l.startsWith("  2. Yes, and don't ask again for commands that start with `echo hello >"))).toBe(true);
    expect(screen).toContain('  3. No, and tell Codex what to do differently (esc)');
    expect(screen.some((l) => l.startsWith('• Running echo hello > '))).toBe(true);
    // The daemon has written the call before the prompt shows, with the escalation arguments.
    const call = payloads(await records(), 'function_call')[0];
    expect(call.name).toBe('exec_command');
    expect(JSON.parse(call.arguments)).toEqual({ cmd, yield_time_ms: 1000, sandbox_permissions: 'require_escalated', justification: 'Write approved.txt in the workspace?' });
    expect(call.call_id).toMatch(/^call_[0-9a-f]{16}$/);
  });

  it('y approves: the command runs and the rollout gets its real output', async () => {
    const p = await start('shell');
    await p.expectScreen('Press enter to confirm');
    p.send('y');
    const screen = await p.expectScreen(/• MOCK FINAL: got 1 tool output/);
    expect(screen).toMatch(/✔ You approved codex to run echo hello > .* this time/);
    expect(screen).toContain('  └ hello');
    const recs = await rolloutHas((r) => r.payload?.type === 'task_complete', 'task_complete');
    const callId = payloads(recs, 'function_call')[0].call_id;
    const exec = payloads(recs, 'item_completed').find((p) => p.item.type === 'CommandExecution');
    expect(exec.item).toMatchObject({ id: callId, status: 'completed', exit_code: 0, aggregated_output: 'hello\n' });
    const out = payloads(recs, 'function_call_output')[0];
    expect(out.call_id).toBe(callId);
    expect(out.output).toMatch(/^Chunk ID: \w+\nWall time: 0\.0000 seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\nhello\n$/);
    expect(payloads(recs, 'turn_aborted')).toEqual([]);
    expect(readFileSync(join(fx.box.work, 'approved.txt'), 'utf8')).toBe('hello\n');
  });

  it('p approves for the session with the "always run" line', async () => {
    const p = await start('sleep');
    await p.expectScreen("2. Yes, and don't ask again for commands that start with `sleep 60` (p)");
    p.send('p');
    await p.expectScreen('✔ You approved codex to always run commands that start with sleep 60');
  });

  it.each([
    ['Esc', '\x1b'],
    ['n', 'n'],
    ['Ctrl+C', '\x03'],
  ])('%s denies: "aborted by user" and turn_aborted, and the command does not run', async (_name, key) => {
    const p = await start('shell');
    await p.expectScreen('Press enter to confirm');
    p.send(key);
    const screen = await p.expectScreen('■ Conversation interrupted - use /feedback if something went wrong');
    expect(screen).toMatch(/✗ You canceled the request to run echo hello > /);
    expect(screen).toMatch(/• Exited \(status 1\) echo hello/);
    const recs = await rolloutHas((r) => r.payload?.type === 'turn_aborted', 'turn_aborted');
    const callId = payloads(recs, 'function_call')[0].call_id;
    const out = payloads(recs, 'function_call_output');
    expect(out).toHaveLength(1);
    expect(out[0].call_id).toBe(callId);
    expect(out[0].output).toMatch(ABORTED);
    const aborted = recs.find((r) => r.payload?.type === 'message' && r.payload.content[0].text.startsWith('<turn_aborted>'));
    expect(aborted.payload.role).toBe('user');
    expect(payloads(recs, 'turn_aborted')[0]).toMatchObject({ reason: 'interrupted' });
    expect(payloads(recs, 'item_completed').some((p) => p.item.type === 'CommandExecution')).toBe(false);
    expect(existsSync(join(fx.box.work, 'approved.txt'))).toBe(false);
  });

  it('Down/Up move the › marker, and Enter on option 3 denies', async () => {
    const p = await start('shell');
    await p.expectScreen('› 1. Yes, proceed (y)');
    p.send('\x1b[B');
    let screen = rows(await p.expectScreen(/^› 2\. Yes, and don't ask again/m));
    expect(screen).toContain('  1. Yes, proceed (y)');
    p.send('\x1b[B');
    screen = rows(await p.expectScreen('› 3. No, and tell Codex what to do differently (esc)'));
    expect(screen.filter((l) => /^› \d\./.test(l))).toEqual(['› 3. No, and tell Codex what to do differently (esc)']);
    p.send('\x1b[A');
    await p.expectScreen(/^› 2\./m);
    p.send('\x1b[B');
    await p.expectScreen('› 3. No');
    p.send('\r');
    await p.expectScreen('■ Conversation interrupted');
    const recs = await rolloutHas((r) => r.payload?.type === 'turn_aborted', 'turn_aborted');
    expect(payloads(recs, 'function_call_output')[0].output).toMatch(ABORTED);
  });

  it('ignores keys Codex ignores at the prompt', async () => {
    const p = await start('shell');
    await p.expectScreen('Press enter to confirm');
    p.send('xz9\t');
    p.send('\x1b[C'); // Right: not a list key
    // A decisive key afterwards proves the ignored ones were read and did nothing.
    p.send('y');
    await p.expectScreen('✔ You approved codex to run');
    const recs = await rolloutHas((r) => r.payload?.type === 'task_complete', 'task_complete');
    expect(payloads(recs, 'function_call_output')).toHaveLength(1);
    expect(payloads(recs, 'turn_aborted')).toEqual([]);
  });

  it('a resize re-wraps the long command, and the wrapped rows rejoin to the command', async () => {
    const p = await start('long', { cols: 250 });
    const cmd = `printf "%s\\n" alpha-bravo-charlie-delta-echo-foxtrot golf-hotel-india-juliet-kilo-lima mike-november-oscar-papa > ${fx.box.work}/long.txt && wc -l ${fx.box.work}/long.txt`;
    expect(rows(await p.expectScreen('Press enter to confirm'))).toContain(`  $ ${cmd}`);
    p.resize(60, 40);
    const screen = rows(await p.expectScreen(/^ {2}\$ printf "%s\\n" alpha-bravo-charlie-delta-echo-foxtrot\s*$/m));
    expect(screen.every((l) => l.length <= 60)).toBe(true);
    const first = screen.findIndex((l) => l.startsWith('  $ '));
    const end = screen.findIndex((l, i) => i > first && l.trim() === '');
    const joined = screen.slice(first, end).map((l) => l.trim()).join(' ');
    expect(joined).toBe(`$ ${cmd}`);
    p.send('\x1b');
    await p.expectScreen('■ Conversation interrupted');
  });
});

describe('fake-codex 0.169.0, running commands and the task menu', () => {
  it('Esc while an approved command runs interrupts it: aborted by user, turn_aborted', async () => {
    const p = await start('sleep');
    await p.expectScreen('Press enter to confirm');
    p.send('y');
    await p.expectScreen(/• Working \(\d+s • esc to interrupt\)/);
    p.send('\x1b');
    const screen = await p.expectScreen('■ Conversation interrupted');
    expect(screen).toContain('✔ You approved codex to run sleep 60; echo slept this time');
    expect(screen).toContain('• Exited (status 1) sleep 60; echo slept');
    const recs = await rolloutHas((r) => r.payload?.type === 'turn_aborted', 'turn_aborted');
    expect(payloads(recs, 'function_call_output')[0].output).toMatch(ABORTED);
  });

  it('Ctrl+C while running opens "Task is still running"; Enter cancels the task', async () => {
    const p = await start('sleep');
    await p.expectScreen('Press enter to confirm');
    p.send('y');
    await p.expectScreen('esc to interrupt');
    p.send('\x03');
    const menu = rows(await p.expectScreen('Task is still running'));
    expect(menu).toContain('  Choose what happens to the current task.');
    expect(menu).toContain('› 1. Cancel task        Stop the current task and stay in Codex');
    expect(menu).toContain('  2. Run in background  Exit Codex and leave the task running');
    expect(menu).toContain('  3. Exit               Stop the current task and exit Codex');
    expect(menu).toContain('  enter select · esc back');
    p.send('\r');
    await p.expectScreen('■ Conversation interrupted');
    await rolloutHas((r) => r.payload?.type === 'turn_aborted', 'turn_aborted');
  });

  it('menu option 3 (Exit) stops the turn and exits 0', async () => {
    const p = await start('sleep');
    await p.expectScreen('Press enter to confirm');
    p.send('y');
    await p.expectScreen('esc to interrupt');
    p.send('\x03');
    await p.expectScreen('Task is still running');
    p.send('\x1b[B\x1b[B');
    await p.expectScreen('› 3. Exit');
    p.send('\r');
    expect(await p.expectExit()).toEqual({ exitCode: 0, signal: undefined });
    expect(p.screen()).toContain('Disconnected from this task. The current turn was stopped.');
    await rolloutHas((r) => r.payload?.type === 'turn_aborted', 'turn_aborted');
  });

  it('parallel calls are prompted one at a time; a denial aborts the whole batch', async () => {
    const p = await start('parallel');
    await p.expectScreen('Reason: Parallel call one');
    p.send('y');
    await p.expectScreen('Reason: Parallel call two');
    p.send('\x1b');
    const screen = await p.expectScreen('■ Conversation interrupted');
    expect(screen).toContain(`✔ You approved codex to run echo one > ${fx.box.work}/p1.txt this time`);
    expect(screen).toContain(`✗ You canceled the request to run echo two > ${fx.box.work}/p2.txt`);
    const recs = await rolloutHas((r) => r.payload?.type === 'turn_aborted', 'turn_aborted');
    const calls = payloads(recs, 'function_call').map((c) => c.call_id);
    const outs = payloads(recs, 'function_call_output');
    expect(outs.map((o) => o.call_id)).toEqual(calls);
    for (const o of outs) expect(o.output).toMatch(ABORTED);
    expect(readFileSync(join(fx.box.work, 'p1.txt'), 'utf8')).toBe('one\n'); // it ran, though "aborted"
    expect(existsSync(join(fx.box.work, 'p2.txt'))).toBe(false);
    expect(existsSync(join(fx.box.work, 'p3.txt'))).toBe(false);
  });
});

describe('fake-codex 0.169.0, edits prompt', () => {
  it('draws "Would you like to make the following edits?" and y applies the patch', async () => {
    const p = await start('patch');
    const screen = rows(await p.expectScreen('Would you like to make the following edits?'));
    expect(screen).toContain('  Description: Apply proposed file edits');
    expect(screen).toContain(`  Destination: ${fx.box.work}/patched.txt`);
    expect(screen).toContain("  2. Yes, and don't ask again for these files (a)");
    p.send('y');
    const recs = await rolloutHas((r) => r.payload?.type === 'task_complete', 'task_complete');
    const change = payloads(recs, 'item_completed').find((x) => x.item.type === 'FileChange');
    expect(change.item.id).toBe(payloads(recs, 'function_call')[0].call_id);
    expect(payloads(recs, 'function_call_output')[0].output).toContain('Success. Updated the following files:');
    expect(readFileSync(join(fx.box.work, 'patched.txt'), 'utf8')).toBe('line one\nline two\n');
  });

  it('Esc denies the edit with no ✗ line, only the interruption', async () => {
    const p = await start('patch');
    await p.expectScreen('Would you like to make the following edits?');
    p.send('\x1b');
    const screen = await p.expectScreen('■ Conversation interrupted');
    expect(screen).not.toContain('✗');
    const recs = await rolloutHas((r) => r.payload?.type === 'turn_aborted', 'turn_aborted');
    expect(payloads(recs, 'function_call_output')[0].output).toMatch(ABORTED);
    expect(existsSync(join(fx.box.work, 'patched.txt'))).toBe(false);
  });
});

describe('fake-codex 0.169.0, streamed answers and the composer', () => {
  it('Esc cuts a streamed answer: the text stays on screen, the rollout keeps none of it', async () => {
    const p = await start('text');
    await p.expectScreen(/• word0 word1 word2 word3/);
    p.send('\x1b');
    const screen = await p.expectScreen('■ Conversation interrupted');
    expect(screen).toMatch(/• word0 word1 word2 word3/);
    const recs = await rolloutHas((r) => r.payload?.type === 'turn_aborted', 'turn_aborted');
    expect(recs.some((r) => r.payload?.role === 'assistant')).toBe(false);
    expect(payloads(recs, 'token_count').at(-1).info).toBeNull();
  });

  it('Run in background exits 0 and the turn still completes in the rollout', async () => {
    const scenarioFile = join(fx.box.root, 'short-text.json');
    writeFileSync(scenarioFile, JSON.stringify({ prompt: 'SCN=text', turns: [{ stream: { words: 12, intervalMs: 100 } }] }));
    const p = await start(scenarioFile);
    await p.expectScreen(/• word0 word1/);
    p.send('\x03');
    await p.expectScreen('Task is still running');
    p.send('2');
    expect(await p.expectExit()).toEqual({ exitCode: 0, signal: undefined });
    expect(p.screen()).toContain('Disconnected from this task. Any running work continues.');
    const recs = await rolloutHas((r) => r.payload?.type === 'task_complete', 'task_complete from the background finisher');
    expect(payloads(recs, 'turn_aborted')).toEqual([]);
  });

  it('the next typed message after a denial is a new user turn in the rollout', async () => {
    const p = await start('shell');
    await p.expectScreen('Press enter to confirm');
    p.send('\x1b');
    await p.expectScreen('■ Conversation interrupted');
    p.send('use printf instead\r');
    await p.expectScreen('• MOCK: ok, noted.');
    const recs = await rolloutHas((r) => r.payload?.type === 'task_complete', 'task_complete');
    const users = recs.filter((r) => r.payload?.type === 'message' && r.payload.role === 'user').map((r) => r.payload.content[0].text);
    expect(users.at(-1)).toBe('use printf instead');
  });
});

describe('fake-codex 0.169.0, process behaviour', () => {
  it('/quit exits with the scenario exit code and restores the tty mode', async () => {
    const scenarioFile = join(fx.box.root, 'exit3.json');
    writeFileSync(scenarioFile, JSON.stringify({ exitCode: 3 }));
    const script = `stty -g > before.txt; "${process.execPath}" "${fakeScript('codex')}" --scenario "${scenarioFile}"; echo "rc=$?"; stty -g > after.txt`;
    fx.proc = spawn('/bin/sh', ['-c', script], { cols: 100, rows: 30, cwd: fx.box.work, env: fx.box.env });
    await fx.proc.expect('fake-codex ready');
    fx.proc.send('/quit\r');
    await fx.proc.expect('rc=3');
    await fx.proc.expectExit();
    expect(readFileSync(join(fx.box.work, 'after.txt'), 'utf8')).toBe(readFileSync(join(fx.box.work, 'before.txt'), 'utf8'));
  });

  it('SIGTERM restores the tty mode and exits 143', async () => {
    const pidFile = join(fx.box.work, 'fake.pid');
    const script = `stty -g > before.txt; "${process.execPath}" "${fakeScript('codex')}" --scenario shell; echo "rc=$?"; stty -g > after.txt`;
    fx.proc = spawn('/bin/sh', ['-c', script], { cols: 100, rows: 30, cwd: fx.box.work, env: { ...fx.box.env, FAKE_PID_FILE: pidFile } });
    await fx.proc.expectScreen('Press enter to confirm');
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
    await fx.proc.expect('rc=143');
    await fx.proc.expectExit();
    expect(readFileSync(join(fx.box.work, 'after.txt'), 'utf8')).toBe(readFileSync(join(fx.box.work, 'before.txt'), 'utf8'));
  });

  it('an unknown scenario is a one-line error and exit 2', async () => {
    fx.proc = spawn(process.execPath, [fakeScript('codex'), '--scenario', 'no-such-scenario'], { cwd: fx.box.work, env: fx.box.env });
    await fx.proc.expect('fake-codex: unknown scenario "no-such-scenario"');
    expect((await fx.proc.expectExit()).exitCode).toBe(2);
  });
});

// `rec hook <agent> <event>` as agents run it: a real child process with the hook JSON on stdin,
// forwarding to a real hook server. Needs the build (npm test builds first).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HookMessage } from '../../../src/core/hookMessage.js';
import { MAX_HOOK_MESSAGE_BYTES } from '../../../src/core/hookMessage.js';
import { startHookServer, type HookServer } from '../../../src/hooks/hookServer.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const launcher = join(root, 'test/integration/hooks/hookLauncher.mjs');
const recBin = join(root, 'bin/rec.js');

/** A real Codex PreToolUse payload (samples/hooks-shell-deny-esc.jsonl, paths replaced). */
const PRE_TOOL_USE = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../fixtures/hooks/codex-pre-tool-use.json'), 'utf8'),
) as Record<string, unknown>;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts a child; stdin is written and closed unless `keepStdinOpen`. Resolves when it exits. */
function run(
  argv: string[],
  env: NodeJS.ProcessEnv,
  stdin: string | Buffer,
  opts: { keepStdinOpen?: boolean } = {},
): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => undefined); // EPIPE: the hook may exit before reading everything.
    child.once('error', reject);
    child.once('close', (code, signal) => resolveRun({ code, signal, stdout, stderr }));
    if (opts.keepStdinOpen) child.stdin.write(stdin);
    else child.stdin.end(stdin);
    if (opts.keepStdinOpen) child.once('exit', () => child.stdin.destroy());
  });
}

const ENTRIES: Array<[string, (agent: string, event: string) => string[]]> = [
  ['dist/commands/hook.js (launcher)', (a, e) => [process.execPath, launcher, a, e]],
  ['node bin/rec.js hook', (a, e) => [process.execPath, recBin, 'hook', a, e]],
];

const logDir = mkdtempSync(join(tmpdir(), 'rec-hook-test-'));
afterAll(() => rmSync(logDir, { recursive: true, force: true }));
let logCount = 0;
/** A path for a debug log of one test. */
const freshLog = (): string => join(logDir, `debug-${++logCount}.log`);

let server: HookServer;
let got: HookMessage[];
const serverEnv = (): NodeJS.ProcessEnv => ({ REC_HOOK_URL: server.url, REC_HOOK_TOKEN: server.token });

beforeAll(() => {
  for (const f of ['dist/commands/hook.js', 'dist/cli.js']) {
    if (!existsSync(join(root, f))) throw new Error(`${f} is missing: build first (npx tsc -p tsconfig.json)`);
  }
});

beforeEach(async () => {
  got = [];
  server = await startHookServer({ onMessage: (m) => got.push(m) });
});
afterEach(async () => {
  await server.close();
});

describe.each(ENTRIES)('rec hook via %s', (_name, argvFor) => {
  it('forwards the hook JSON with agent, event and payload; prints nothing for codex; exits 0', async () => {
    const r = await run(argvFor('codex', 'PreToolUse'), serverEnv(), JSON.stringify(PRE_TOOL_USE));
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ agent: 'codex', event: 'PreToolUse', payload: PRE_TOOL_USE });
    expect(Number.isNaN(Date.parse(got[0]!.sent_at))).toBe(false);
    expect(server.stats).toEqual({ received: 1, dropped: 0, rejected: 0 });
  });

  it('answers Gemini with the JSON object its protocol parses', async () => {
    const r = await run(argvFor('gemini', 'BeforeTool'), serverEnv(), '{"tool_name":"run_shell_command"}');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({});
    expect(got[0]).toMatchObject({ agent: 'gemini', event: 'BeforeTool', payload: { tool_name: 'run_shell_command' } });
  });

  it('a wrong token is refused and counted; the hook still exits 0 silently', async () => {
    const r = await run(argvFor('claude', 'PreToolUse'), { REC_HOOK_URL: server.url, REC_HOOK_TOKEN: 'guess' }, '{}');
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(got).toHaveLength(0);
    expect(server.stats.rejected).toBe(1);
  });

  it('with no server listening, the hook exits 0 silently', async () => {
    const env = serverEnv();
    await server.close();
    const r = await run(argvFor('codex', 'Stop'), env, '{"a":1}');
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('with no REC_HOOK_URL it exits 0 at once, printing nothing, without waiting for stdin', async () => {
    const log = freshLog();
    const env = { REC_DEBUG: '1', REC_DEBUG_LOG: log };
    const r = await run(argvFor('codex', 'PreToolUse'), env, '{"partial":', { keepStdinOpen: true });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // It returned before touching stdin (had it waited, the log would say `stdin timeout`).
    expect(readFileSync(log, 'utf8')).toMatch(/codex PreToolUse: not under rec/);
  });

  it('stdin that is not JSON is not forwarded; exit 0', async () => {
    const r = await run(argvFor('claude', 'PreToolUse'), serverEnv(), 'this is not json');
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(got).toHaveLength(0);
  });

  it('empty stdin forwards the event with a null payload', async () => {
    const r = await run(argvFor('codex', 'Interrupt'), serverEnv(), '');
    expect(r.code).toBe(0);
    expect(got).toMatchObject([{ agent: 'codex', event: 'Interrupt', payload: null }]);
  });

  it('stdin over the size limit is read to the end but not forwarded; exit 0', async () => {
    const huge = JSON.stringify({ blob: 'z'.repeat(MAX_HOOK_MESSAGE_BYTES) });
    const r = await run(argvFor('codex', 'PostToolUse'), serverEnv(), huge);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(got).toHaveLength(0);
  });

  it('stdin that never closes: gives up at its deadline and exits 0', async () => {
    const log = freshLog();
    const env = { ...serverEnv(), REC_DEBUG: '1', REC_DEBUG_LOG: log };
    const r = await run(argvFor('codex', 'PreToolUse'), env, '{"partial":', { keepStdinOpen: true });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(got).toHaveLength(0);
    expect(readFileSync(log, 'utf8')).toMatch(/codex PreToolUse: stdin timeout, not sent/);
  });

  it('an unknown agent name is not sent (rec hook checks it against the registry); the hook exits 0 silently', async () => {
    const r = await run(argvFor('vim', 'PreToolUse'), serverEnv(), '{}');
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(got).toHaveLength(0);
    expect(server.stats).toEqual({ received: 0, dropped: 0, rejected: 0 });
  });

  it('missing arguments: exit 0, silent, nothing sent', async () => {
    const r = await run(argvFor('codex', 'X').slice(0, -2), serverEnv(), '{}');
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(server.stats).toEqual({ received: 0, dropped: 0, rejected: 0 });
  });
});

describe('rec hook under concurrency', () => {
  it('parallel hooks (as for parallel tool calls) all land, each exactly once', async () => {
    const n = 8;
    const runs = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        run([process.execPath, launcher, 'claude', 'PreToolUse'], serverEnv(), JSON.stringify({ tool_use_id: `toolu_${i}` })),
      ),
    );
    expect(runs.every((r) => r.code === 0 && r.stdout === '' && r.stderr === '')).toBe(true);
    const ids = got.map((m) => (m.payload as { tool_use_id: string }).tool_use_id).sort();
    expect(ids).toEqual(Array.from({ length: n }, (_, i) => `toolu_${i}`).sort());
    expect(server.stats).toEqual({ received: n, dropped: 0, rejected: 0 });
  });
});

describe('rec hook debug log', () => {
  it('REC_DEBUG=1 appends a line to the debug log file, never to the terminal, never the token', async () => {
    const log = freshLog();
    const env = { ...serverEnv(), REC_DEBUG: '1', REC_DEBUG_LOG: log };
    const r = await run([process.execPath, launcher, 'codex', 'PreToolUse'], env, JSON.stringify(PRE_TOOL_USE));
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const text = readFileSync(log, 'utf8');
    expect(text).toMatch(/codex PreToolUse: acked/);
    expect(text).not.toContain(server.token);
    expect(text).not.toContain('echo hello');
  });
});

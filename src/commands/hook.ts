// `rec hook <agent> <event>`: the command an agent's hook configuration runs. It reads the hook's
// JSON from stdin, forwards it to the run that launched the agent (REC_HOOK_URL / REC_HOOK_TOKEN),
// waits briefly for the ack, prints what the agent's hook protocol wants, and returns 0 whatever
// happens: a hook must never block or fail the agent.
//
// Start-up time matters here (this runs once per hook), so the import graph is kept to node
// built-ins and dependency-free modules: no zod, no ws, no sqlite, no pty.
import type { AgentName } from '../core/events.js';
import type { HookMessage } from '../core/hookMessage.js';
import { sendHookMessage } from '../hooks/hookClient.js';
import { appendHookDebug } from '../hooks/hookDebugLog.js';
import { hookStdoutFor } from '../agents/registry.js';
import { HOOK_MESSAGE_LIMIT_BYTES, HOOK_TOKEN_ENV, HOOK_URL_ENV } from '../hooks/hookProtocol.js';
import { readHookStdin } from '../hooks/readHookStdin.js';
import { ignoreBrokenPipe, type CommandIO } from './commandIO.js';
import { AGENTS, HOOK_SPEC } from './commandSpec.js';
import { quote } from './parseCommandArgs.js';

/**
 * How long to wait for the agent to finish writing the hook's stdin. Agents write the payload and
 * close the pipe at once; this only bounds a caller that never closes it.
 */
export const HOOK_STDIN_TIMEOUT_MS = 1000;

/**
 * How long the whole forward (connect, upgrade, send, ack) may take. The server answers from the
 * run's own event loop in a few ms; the bound keeps a stalled or busy `rec` from holding up the
 * agent (which waits for every hook to exit) by more than a second. Past it the event is lost.
 */
export const HOOK_ACK_TIMEOUT_MS = 1000;

export type HookIO = CommandIO & { readonly stdin: NodeJS.ReadableStream };

export async function hookCommand(args: string[], io: HookIO): Promise<number> {
  const startedAt = new Date();
  if (args[0] === '--help' || args[0] === '-h') {
    const { commandHelp } = await import('./help.js');
    const { outputWidth } = await import('./terminalText.js');
    ignoreBrokenPipe(io); // `rec hook --help | head -3`
    io.stdout.write(commandHelp(HOOK_SPEC, outputWidth(io.stdout)));
    return 0;
  }
  // Outside a rec run no agent calls this (rec wires its hooks for one run only), so a wrong call
  // there is a person's mistake and is said as one. Under rec it is only logged: whatever happens,
  // a hook must never fail the agent.
  const mistake = hookUsageMistake(args);
  if (mistake !== undefined && !(io.env[HOOK_URL_ENV] && io.env[HOOK_TOKEN_ENV])) {
    io.stderr.write(`rec hook: ${mistake}\n`);
    return 2;
  }
  const [agent, event] = args;
  try {
    const outcome = await forwardHook(agent, event, startedAt, io);
    appendHookDebug(io.env, `${agent ?? '-'} ${event ?? '-'}: ${outcome} in ${Date.now() - startedAt.getTime()} ms`);
  } catch (err) {
    // A bug in this command must still leave the agent's hook successful; it is only logged.
    appendHookDebug(io.env, `${agent ?? '-'} ${event ?? '-'}: internal error ${String(err)}`);
  }
  await writeAll(io.stdout, hookStdoutFor(agent));
  return 0;
}

function hookUsageMistake(args: readonly string[]): string | undefined {
  if (args.length === 0) return 'missing AGENT and EVENT (rec hook AGENT EVENT; rec hook --help says more)';
  if (!AGENTS.includes(args[0]!)) return `bad AGENT '${quote(args[0]!)}': expected one of ${AGENTS.join(', ')}`;
  if (args.length === 1) return 'missing EVENT (rec hook AGENT EVENT)';
  if (args.length > 2) return `unexpected argument '${quote(args[2]!)}' (rec hook AGENT EVENT)`;
  return undefined;
}

/** Does the forwarding and says in a few words what happened (for the debug log only). */
async function forwardHook(
  agent: string | undefined,
  event: string | undefined,
  startedAt: Date,
  io: HookIO,
): Promise<string> {
  const url = io.env[HOOK_URL_ENV];
  const token = io.env[HOOK_TOKEN_ENV];
  if (!url || !token) return 'not under rec (no REC_HOOK_URL/REC_HOOK_TOKEN)';
  if (!agent || !event) return 'usage: rec hook <agent> <event>';
  // The hook server knows only the form of a name (it is below the registry): the name is checked here.
  if (!AGENTS.includes(agent)) return 'unknown agent, not sent';

  const stdin = await readHookStdin(io.stdin, {
    maxBytes: HOOK_MESSAGE_LIMIT_BYTES,
    timeoutMs: HOOK_STDIN_TIMEOUT_MS,
  });
  if (stdin.kind === 'too_large') return `stdin too large (${stdin.bytes} bytes), not sent`;
  if (stdin.kind !== 'ok') return `stdin ${stdin.kind === 'error' ? stdin.code : stdin.kind}, not sent`;

  let payload: unknown = null;
  if (stdin.text.trim() !== '') {
    try {
      payload = JSON.parse(stdin.text);
    } catch {
      // Not JSON: an agent protocol change or a hand-run hook. Nothing useful to forward.
      return 'stdin is not JSON, not sent';
    }
  }
  // The server validates this against the zod HookMessage.
  const message: HookMessage = {
    agent: agent as AgentName,
    event,
    payload,
    sent_at: startedAt.toISOString(),
  };
  const body = JSON.stringify(message);
  if (Buffer.byteLength(body, 'utf8') > HOOK_MESSAGE_LIMIT_BYTES) return 'message too large, not sent';

  const result = await sendHookMessage({ url, token, body, timeoutMs: HOOK_ACK_TIMEOUT_MS });
  return result.ok ? 'acked' : `not delivered (${result.reason})`;
}

function writeAll(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text === '') return Promise.resolve();
  return new Promise((resolve) => {
    // EPIPE: the agent stopped reading our stdout. The answer is then moot; exit 0 regardless.
    stream.once('error', () => resolve());
    stream.write(text, () => resolve());
  });
}

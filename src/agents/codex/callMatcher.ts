// Whether an approval prompt shows a tool call. Codex shows prompts one at a time in call order; the
// prompt's command (or the patch's destination) and its Reason identify the call among the pending
// ones, whatever the screen width did to the wrapping (the shared recorder tries them in order).
import type { KnownCall } from '../common/callLedger.js';
import type { CodexPrompt } from './screenParser.js';
import type { CodexStrings } from './strings/index.js';

const squash = (s: string) => s.replace(/\s+/g, '');

/** The shell command a call runs, as Codex shows it after `$ `. */
export function callCommand(call: KnownCall, strings: CodexStrings): string | undefined {
  const input = call.toolInput;
  if (typeof input === 'string') return input;
  if (!input || typeof input !== 'object') return undefined;
  const args = input as Record<string, unknown>;
  if (typeof args.cmd === 'string') return args.cmd;
  if (typeof args.command === 'string') return args.command;
  if (Array.isArray(args.command)) {
    const argv = args.command.map(String);
    const wrapper = strings.shellWrapper;
    if (argv.length === 3 && wrapper.shell.test(argv[0]!) && argv[1] === wrapper.scriptFlag) return argv[2];
    return argv.join(' ');
  }
  return undefined;
}

export function callJustification(call: KnownCall): string | undefined {
  const args = call.toolInput as Record<string, unknown> | null;
  return args && typeof args === 'object' && typeof args.justification === 'string' ? args.justification : undefined;
}

/** Whether the prompt shows this call. Clipped commands (ending in `…`) match by prefix. */
export function promptShowsCall(prompt: CodexPrompt, call: KnownCall, strings: CodexStrings): boolean {
  const { server, tool } = prompt.details;
  if (server !== undefined && tool !== undefined) return call.toolName === mcpToolName(server, tool) && argsShown(prompt.mcpArgs ?? {}, call.toolInput);
  const command = callCommand(call, strings);
  if (prompt.kind === 'network') return prompt.details.host !== undefined && command !== undefined && namesHost(command, prompt.details.host);
  if (prompt.kind === 'patch') {
    const destination = prompt.details.destination;
    const patchText = command ?? '';
    if (!destination) return strings.patchFileRow.test(patchText);
    const files = [...patchText.matchAll(new RegExp(strings.patchFileRow.source, 'gm'))].map((m) => m[1]!.trim());
    return files.some((f) => squash(f) === squash(destination) || squash(destination).endsWith(squash(f)));
  }
  if (prompt.command === undefined || command === undefined) return false;
  const shown = squash(prompt.command);
  const actual = squash(command);
  const commandMatches = shown.endsWith('…') ? actual.startsWith(shown.slice(0, -1)) : shown === actual;
  if (!commandMatches) return false;
  const reason = prompt.details.reason;
  const justification = callJustification(call);
  return reason === undefined || justification === undefined || squash(reason) === squash(justification);
}

/**
 * Whether a command names the host a network prompt asks about, as a whole host name (not a longer
 * one it begins or ends). Codex asks while the command runs and shows only the host: a command that
 * reaches a host it does not name (a package manager's registry) is tied to no call, which `rec
 * merge` shows as a decision without its call rather than on a guessed one.
 */
export function namesHost(command: string, host: string): boolean {
  const escaped = host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9.-])${escaped}(?![A-Za-z0-9-]|\\.[A-Za-z0-9])`, 'i').test(command);
}

/**
 * Whether the form's `name: value` rows are the call's arguments: successive calls of one tool
 * differ only there. A value clipped with `…` matches by prefix; a non-string argument by its JSON.
 */
function argsShown(shown: Readonly<Record<string, string>>, input: unknown): boolean {
  const args = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  return Object.entries(shown).every(([name, value]) => {
    const actual = args[name];
    if (actual === undefined) return false;
    const text = squash(typeof actual === 'string' ? actual : JSON.stringify(actual));
    const seen = squash(value);
    return seen.endsWith('…') ? text.startsWith(seen.slice(0, -1)) : text === seen;
  });
}

/**
 * The name an MCP tool's call goes by in rec's records: Codex 0.171.0 offers each server's tools in
 * a namespace `mcp__<server>` and writes the call's `name` and `namespace` apart; joined, they read
 * like Claude's `mcp__<server>__<tool>`.
 */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** The server and tool of an MCP call's name (`mcp__<server>__<tool>`), or undefined. */
export function mcpToolOf(toolName: string): { readonly server: string; readonly tool: string } | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(toolName);
  return m ? { server: m[1]!, tool: m[2]! } : undefined;
}

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
  const command = callCommand(call, strings);
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

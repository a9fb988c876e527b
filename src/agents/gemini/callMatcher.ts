// Whether a confirmation dialog shows a tool call. Gemini writes a batch's calls only when the batch
// is over, so dialogs are tied to calls afterwards, in order (the shared recorder tries them in
// call order): the command a Shell dialog runs, or the file an Edit/WriteFile dialog changes, must
// be the call's, whatever the screen width did to the wrapping.
import type { KnownCall } from '../common/callLedger.js';
import type { GeminiPrompt } from './screenParser.js';
import { isObject } from './sessionRecords.js';

/** Gemini's tool names by the name its dialogs show. */
const DISPLAY_NAMES: Readonly<Record<string, readonly string[]>> = {
  Shell: ['run_shell_command'],
  WriteFile: ['write_file'],
  Edit: ['replace', 'edit'],
  WebFetch: ['web_fetch'],
};

const squash = (s: string) => s.replace(/\s+/g, '');

function argString(call: KnownCall, ...keys: string[]): string | undefined {
  const args = isObject(call.toolInput) ? call.toolInput : {};
  for (const k of keys) if (typeof args[k] === 'string') return args[k];
  return undefined;
}

export function promptShowsCall(prompt: GeminiPrompt, call: KnownCall): boolean {
  const names = DISPLAY_NAMES[prompt.tool];
  if (names ? !names.includes(call.toolName) : !call.toolName.includes(prompt.tool) && !prompt.tool.includes(call.toolName)) return false;
  if (prompt.kind === 'command') {
    const command = argString(call, 'command');
    if (command === undefined || prompt.command === undefined) return false;
    const shown = squash(prompt.command);
    const actual = squash(command);
    // A long command may be clipped with an ellipsis.
    const clipped = /(…|\.\.\.)$/.exec(shown);
    return clipped ? actual.startsWith(shown.slice(0, -clipped[0].length)) : shown === actual;
  }
  if (prompt.file !== undefined) {
    const path = argString(call, 'file_path', 'path');
    if (path === undefined) return false;
    const shown = squash(prompt.file);
    return squash(path) === shown || squash(path).endsWith('/' + shown) || shown.endsWith(squash(path));
  }
  return true;
}

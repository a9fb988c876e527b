// Whether a permission prompt shows a tool call. Claude prompts one call at a time, in call order:
// a command prompt shows the Bash call's command; a file prompt shows the path relative to the cwd
// (or as given) of the Edit/Write call. The comparison ignores whitespace, so a command wrapped at
// any width still matches. Plan mode's dialog shows the ExitPlanMode call (one at a time, too).
import type { KnownCall } from '../common/callLedger.js';
import { squash, type ClaudePrompt } from './screenParser.js';

const COMMAND_TOOLS: ReadonlySet<string> = new Set(['Bash']);
const FILE_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
/** Plan mode's dialog shows no part of the call (not even the plan): only the tool ties it. */
const PLAN_TOOLS: ReadonlySet<string> = new Set(['ExitPlanMode']);

/**
 * A prompt that shows a description and the call's arguments: WebFetch's (`url: …` between the
 * rules), or an MCP tool's (`<server> — <tool title>: (MCP)`, the tool's title being its own
 * wording, so the server's name ties it: Claude names the call `mcp__<server>__<tool>`).
 */
function toolPromptShows(prompt: ClaudePrompt, call: KnownCall): boolean {
  if (call.toolName === 'WebFetch') {
    const url = field(call.toolInput, 'url');
    return url !== undefined && squash(prompt.details.body ?? '').includes(squash(url));
  }
  const server = /^(.+?) — /.exec(prompt.details.description ?? '')?.[1];
  return server !== undefined && call.toolName.startsWith(`mcp__${server}__`);
}

function field(input: unknown, ...names: string[]): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  for (const name of names) {
    const v = (input as Record<string, unknown>)[name];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

/** The command of a Bash call. */
export function callCommand(call: Pick<KnownCall, 'toolInput'>): string | undefined {
  return field(call.toolInput, 'command');
}

export function promptShowsCall(prompt: ClaudePrompt, call: KnownCall): boolean {
  if (prompt.body === 'command') {
    const command = callCommand(call);
    if (!COMMAND_TOOLS.has(call.toolName) || prompt.command === undefined || command === undefined) return false;
    const shown = squash(prompt.command);
    const actual = squash(command);
    // A command too long for the pane may be cut with `…`.
    return shown.endsWith('…') ? actual.startsWith(shown.slice(0, -1)) : shown === actual;
  }
  if (prompt.body === 'file') {
    const path = field(call.toolInput, 'file_path', 'notebook_path', 'path');
    const shown = prompt.questionFile ?? prompt.details.file;
    if (!FILE_TOOLS.has(call.toolName) || path === undefined || shown === undefined) return false;
    const p = squash(path);
    const s = squash(shown);
    return p === s || p.endsWith('/' + s);
  }
  if (prompt.body === 'plan') return PLAN_TOOLS.has(call.toolName);
  if (prompt.body === 'tool') return toolPromptShows(prompt, call);
  // A prompt rec has not measured: only the tool's name can tie it (a title naming the tool).
  return prompt.title.includes(call.toolName);
}

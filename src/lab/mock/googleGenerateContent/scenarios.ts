// What the mock Gemini model answers. A scenario is the list of replies for one user turn: reply 0
// answers the user's prompt, reply N answers after the Nth batch of function responses. A prompt
// picks its scenario with a marker such as `[[scenario:shell]]` (../scenarioMarker.ts); a prompt
// without one (e.g. the user's reason after a rejection) gets `say`, which echoes it back.
import { withoutBracketedScenario } from '../scenarioMarker.js';

/** One function call of a reply. Without `id`, Gemini makes its own (`<name>_<Date.now()>_<n>`), as with the real API. */
export interface MockFunctionCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly id?: string;
}

export type ContentReply =
  /** Text in `chunkChars`-sized chunks; `endless` keeps sending numbered words until the client closes. */
  | { readonly type: 'text'; readonly text: string; readonly chunkChars?: number; readonly delayMs?: number; readonly endless?: boolean }
  /** Function calls in one response (several = one parallel batch). */
  | { readonly type: 'calls'; readonly calls: readonly MockFunctionCall[] };

export interface ContentReplyContext {
  /** The user's latest typed text (the last text part of the latest user turn that has text). */
  readonly userText: string;
  /** 0 for the reply to the prompt, N after the Nth batch of function responses. */
  readonly step: number;
  /** The function names the request declared (MCP tools appear under the names Gemini gave them). */
  readonly toolNames: readonly string[];
}

export type ContentScenario = readonly ContentReply[] | ((ctx: ContentReplyContext) => ContentReply);

/** What a scenario says once its scripted replies are used up (after the function responses). */
export const FINAL_TEXT = 'MOCK FINAL: all done.';

/** Delay between chunks of the slow stream: slow enough to cut it with a key after a few words. */
export const SLOW_STREAM_DELAY_MS = 250;

/** The slow stream's first words; numbered words (slowWord) follow until the client closes. */
export const STREAM_LEAD = 'Counting slowly: ';

/** The slow stream's words: `w1 w2 w3 …`, so a captured prefix is easy to check. */
export function slowWord(n: number): string {
  return `w${n} `;
}

/** The file the MCP scenario's tool creates when it runs. */
export const MCP_MARKER = 'mcp-marker.txt';

/** The page the fetch scenario asks for: a loopback port nothing listens on. */
export const FETCH_URL = 'http://127.0.0.1:9/page';

/** The file the edit scenario changes; the work dir starts with it (geminiEnv.ts writes it). */
export const EDIT_FILE = { name: 'edit_me.txt', content: 'first line\nold line\nlast line\n' } as const;

export function shell(command: string, description: string): MockFunctionCall {
  return { name: 'run_shell_command', args: { command, description } };
}

export function writeFile(filePath: string, content: string): MockFunctionCall {
  return { name: 'write_file', args: { file_path: filePath, content } };
}

/**
 * The commands are `touch`/`sleep`, never `echo`: Gemini 0.61.0 auto-allows `echo …` without a
 * dialog. Descriptions are distinct so a dialog can be matched to its call on screen.
 */
export const CONTENT_SCENARIOS: Readonly<Record<string, ContentScenario>> = {
  shell: [{ type: 'calls', calls: [shell('touch shell_marker.txt', 'Create a marker file')] }],
  // rec rules' proof: a command its suggested policy covers, and one it does not.
  'rules-covered': [{ type: 'calls', calls: [shell('touch rules_covered.txt', 'Touch the covered file')] }],
  'rules-uncovered': [{ type: 'calls', calls: [shell('touch rules_uncovered.txt', 'Touch another file')] }],
  edit: [
    {
      type: 'calls',
      calls: [
        {
          name: 'replace',
          args: { file_path: EDIT_FILE.name, instruction: 'Change old line to new line', old_string: 'old line', new_string: 'new line' },
        },
      ],
    },
  ],
  // write_file is never parallel in Gemini: two in one response give two dialogs, one after the other.
  'parallel-writes': [{ type: 'calls', calls: [writeFile('a.txt', 'alpha\n'), writeFile('b.txt', 'beta\n')] }],
  'parallel-shell': [
    {
      type: 'calls',
      calls: [shell('touch one.txt', 'first'), shell('touch two.txt', 'second'), shell('touch three.txt', 'third')],
    },
  ],
  long: [{ type: 'calls', calls: [shell('sleep 30; touch slept.txt', 'Sleep 30s')] }],
  // The MCP tool of test/fakes/mcp/markerServer.mjs, by whatever name Gemini declared it under.
  mcp: ({ step, toolNames }) =>
    step === 0
      ? { type: 'calls', calls: [{ name: toolNames.find((n) => n.endsWith('touch_marker')) ?? 'touch_marker', args: { name: MCP_MARKER } }] }
      : { type: 'text', text: FINAL_TEXT },
  // web_fetch asks "Do you want to proceed?" before it fetches (the URL is a dead loopback port).
  fetch: [{ type: 'calls', calls: [{ name: 'web_fetch', args: { prompt: `Summarize ${FETCH_URL}` } }] }],
  stream: [{ type: 'text', text: STREAM_LEAD, chunkChars: 1_000, delayMs: SLOW_STREAM_DELAY_MS, endless: true }],
  say: ({ userText }) => ({ type: 'text', text: `Noted: ${withoutBracketedScenario(userText)}` }),
};

export function pickContentReply(scenario: ContentScenario, ctx: ContentReplyContext): ContentReply {
  if (typeof scenario === 'function') return scenario(ctx);
  return scenario[ctx.step] ?? { type: 'text', text: FINAL_TEXT };
}

// What the mock Anthropic Messages model answers, scripted for Claude Code's tools. A user prompt
// picks its scenario with a marker `SCENARIO <name>` (the research notes' convention,
// shared/agents/claude/README.md); reply N answers after the model's Nth message of that turn; once
// the script is used up, FINAL_PREFIX summarises the tool results that came back (so a test can read
// what the model was told).

/** One tool_use block the mock asks Claude Code to make. */
export interface MockToolUse {
  readonly name: string;
  /** Built per request: file tools need the absolute work dir. */
  readonly input: (ctx: ReplyContext) => Readonly<Record<string, unknown>>;
}

export type MessagesReply =
  /** Text; with `delayMs` streamed one `chunkWords` slice per delay; `endless` keeps going until the client closes. */
  | { readonly type: 'text'; readonly text: string; readonly delayMs?: number; readonly endless?: boolean }
  /**
   * tool_use blocks in one message (several = parallel calls) after an optional text block; with
   * `slowInputMs`, the last call's input streams one character per delay and never completes
   * (Claude Code drops a tool_use cut mid-stream: the Esc scenario).
   */
  | { readonly type: 'tools'; readonly text?: string; readonly calls: readonly MockToolUse[]; readonly slowInputMs?: number };

export interface ReplyContext {
  /** Claude Code's working directory, from the system prompt (`Primary working directory: …`). */
  readonly workDir: string;
  /** 0 for the reply to the user's prompt, N after the model's Nth message of this turn. */
  readonly step: number;
}

export type MessagesScenario = readonly MessagesReply[];

export const FINAL_PREFIX = 'MOCK FINAL:';

/** Between streamed words of the slow text and slow tool input: slow enough for Esc to land mid-stream. */
export const SLOW_DELAY_MS = 150;

/** A command that runs for 30 s and that Claude Code's Bash validator lets through to the prompt. */
export const SLEEP_COMMAND = `node -e "setTimeout(() => console.log('done-waiting'), 30000)"`;

/**
 * A `node -e "…"` command too long for one row of an 80-column prompt: Claude wraps it over
 * several rows of the Bash prompt, and the recorder must still tie the prompt to its call.
 */
export const LONG_NODE_COMMAND =
  `node -e "const fs = require('fs'); const lines = []; for (let i = 1; i <= 12; i++) lines.push('line ' + i + ' of a long wrapped command'); fs.writeFileSync('long-node.txt', lines.join('\\n'))"`;

/**
 * A command auto mode sends to its classifier (docs/claude-auto-mode.md): a plain `echo > file` in the
 * work dir is allowed by the mode itself, with no verdict asked for.
 */
export const AUTO_MODE_COMMAND = 'node -e "require(\\"fs\\").writeFileSync(\\"cls.txt\\",\\"x\\")"';
/** The file AUTO_MODE_COMMAND writes when it runs. */
export const AUTO_MODE_FILE = 'cls.txt';
/**
 * The three commands of the breaker's scenario, one per reply, each after the previous result: a
 * classifier that flags all three trips auto mode's limit of three refusals in a row, and the third
 * is put to the user (docs/claude-auto-mode.md §4).
 */
export const AUTO_MODE_BREAKER_FILES = ['cls-1.txt', 'cls-2.txt', 'cls-3.txt'] as const;
export const autoModeBreakerCommand = (file: string): string => `node -e "require(\\"fs\\").writeFileSync(\\"${file}\\",\\"x\\")"`;

/** The file the edit scenario changes; claudeEnv seeds it. */
export const NOTES_FILE = 'notes.txt';
export const NOTES_TEXT = 'line one\noriginal line\nline three\n';
export const EDITED_LINE = 'EDITED BY MOCK';
/** The file the write scenario asks to create. */
export const CREATED_FILE = 'created.txt';
/** The files of rec rules' proof: one a suggested rule covers, one it does not. */
export const RULES_COVERED_FILE = 'rules-covered.txt';
export const RULES_UNCOVERED_FILE = 'rules-uncovered.txt';

/** The slow text: numbered words, so a cut-off prefix is easy to check. */
export function slowWord(i: number): string {
  return `word${i} `;
}

/** The page the webfetch scenario asks for: a closed port on loopback (nothing leaves the machine). */
export const FETCH_URL = 'http://127.0.0.1:9/rec-page';
export const FETCH_PROMPT = 'Summarise the page';
/** The MCP tool of the mcp scenario, as Claude Code names it: server `marker`, tool `touch_marker`. */
export const MCP_TOOL = 'mcp__marker__touch_marker';
/** The file the MCP tool creates when it runs. */
export const MCP_MARKER = 'mcp-marker.txt';
/** The notebook the notebook scenario edits; claudeEnv seeds it (one code cell). */
export const NOTEBOOK_FILE = 'analysis.ipynb';
export const NOTEBOOK_CELL_ID = 'cell-a1';
export const NOTEBOOK_NEW_SOURCE = 'print("edited by the mock")';
/** A minimal nbformat 4.5 notebook with one code cell. */
export const NOTEBOOK_TEXT = JSON.stringify(
  {
    cells: [{ cell_type: 'code', id: NOTEBOOK_CELL_ID, metadata: {}, execution_count: null, outputs: [], source: ['print("original")'] }],
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
);

const bash = (command: string, description: string): MockToolUse => ({ name: 'Bash', input: () => ({ command, description }) });
const abs = (ctx: ReplyContext, file: string): string => `${ctx.workDir}/${file}`;

export const MESSAGES_SCENARIOS: Readonly<Record<string, MessagesScenario>> = {
  bash: [{ type: 'tools', text: 'I will run a command.', calls: [bash('echo mock-bash-ran > bash-out.txt', 'Write a marker file')] }],
  // Claude Code refuses an Edit of a file it has not read in this session, so the mock reads it first (Read is auto-allowed).
  edit: [
    { type: 'tools', text: 'Let me read the file first.', calls: [{ name: 'Read', input: (c) => ({ file_path: abs(c, NOTES_FILE) }) }] },
    {
      type: 'tools',
      text: 'Now I will edit it.',
      calls: [{ name: 'Edit', input: (c) => ({ file_path: abs(c, NOTES_FILE), old_string: 'original line', new_string: EDITED_LINE }) }],
    },
  ],
  // A new file: Write asks "Create file" (no Read needed first).
  write: [{ type: 'tools', text: 'I will create a file.', calls: [{ name: 'Write', input: (c) => ({ file_path: abs(c, CREATED_FILE), content: 'created by the mock\n' }) }] }],
  parallel: [
    {
      type: 'tools',
      text: 'I will run three commands.',
      calls: [bash('echo one > p1.txt', 'Write p1.txt'), bash('echo two > p2.txt', 'Write p2.txt'), bash('echo three > p3.txt', 'Write p3.txt')],
    },
  ],
  // 2.1.330's Bash validator refuses `sleep 30` without a prompt ("Blocked: standalone sleep 30. …"),
  // and `sleep N; …` too (2.1.328), so the long command waits in node, as the research notes did.
  longnode: [{ type: 'tools', text: 'I will run a long command.', calls: [bash(LONG_NODE_COMMAND, 'Write long-node.txt')] }],
  sleep: [{ type: 'tools', text: 'I will wait.', calls: [bash(SLEEP_COMMAND, 'Wait 30 seconds')] }],
  // Auto mode (`--permission-mode auto`): a command its classifier must judge (the verdict: ./safeguards.ts).
  automode: [{ type: 'tools', text: 'I will write a file with node.', calls: [bash(AUTO_MODE_COMMAND, 'Write cls.txt')] }],
  automode3: AUTO_MODE_BREAKER_FILES.map((file) => ({ type: 'tools' as const, text: `I will write ${file} with node.`, calls: [bash(autoModeBreakerCommand(file), `Write ${file}`)] })),
  slowtext: [{ type: 'text', text: '', delayMs: SLOW_DELAY_MS, endless: true }],
  slowtool: [{ type: 'tools', text: 'I will write a file.', calls: [bash('echo never-complete > slow.txt', 'Write slow.txt')], slowInputMs: SLOW_DELAY_MS }],
  // Matched by the deny rule claudeEnv writes into settings.json (DENY_RULE).
  denyrule: [{ type: 'tools', text: 'I will remove a file.', calls: [bash('rm -f denied.txt', 'Remove denied.txt')] }],
  // rec rules' proof: a command its suggested allow rule covers, and one it does not (both write, so both prompt unless a rule allows them).
  rulescovered: [{ type: 'tools', text: 'I will touch a file.', calls: [bash(`touch ${RULES_COVERED_FILE}`, 'Touch the covered file')] }],
  rulesuncovered: [{ type: 'tools', text: 'I will touch another file.', calls: [bash(`touch ${RULES_UNCOVERED_FILE}`, 'Touch another file')] }],
  // A general-purpose subagent whose own first prompt is `SCENARIO bash`: its Bash call prompts from the subagent.
  agent: [
    {
      type: 'tools',
      text: 'Delegating to a subagent.',
      calls: [{ name: 'Agent', input: () => ({ description: 'Run bash in a subagent', prompt: 'SCENARIO bash', subagent_type: 'general-purpose' }) }],
    },
  ],
  // The same subagent asked to run in the foreground (run_in_background: false), streaming an
  // endless answer: the main turn waits on the Agent call while the subagent works (Esc cuts it).
  'agent-foreground': [
    {
      type: 'tools',
      text: 'Delegating to a subagent in the foreground.',
      calls: [{ name: 'Agent', input: () => ({ description: 'Stream in a subagent', prompt: 'SCENARIO slowtext', subagent_type: 'general-purpose', run_in_background: false }) }],
    },
  ],
  // Plan mode (`--permission-mode plan`): the model asks to leave it with a plan (the plan approval dialog).
  plan: [{ type: 'tools', text: 'Here is my plan.', calls: [{ name: 'ExitPlanMode', input: () => ({ plan: PLAN_TEXT }) }] }],
  // A plan taller than the screen: whether the dialog draws another view for it.
  'plan-long': [{ type: 'tools', text: 'Here is my long plan.', calls: [{ name: 'ExitPlanMode', input: () => ({ plan: LONG_PLAN_TEXT }) }] }],
  // The prompts of other tools (promptScenarios.ts). WebFetch names a loopback URL: a refusal
  // fetches nothing, and an approval stays on 127.0.0.1.
  webfetch: [{ type: 'tools', text: 'I will fetch a page.', calls: [{ name: 'WebFetch', input: () => ({ url: FETCH_URL, prompt: FETCH_PROMPT }) }] }],
  // The one tool of test/fakes/mcp/markerServer.mjs, configured as server `marker` (claudeEnv's mcpServer).
  mcp: [{ type: 'tools', text: 'I will call an MCP tool.', calls: [{ name: MCP_TOOL, input: () => ({ name: MCP_MARKER }) }] }],
  // Like Edit, NotebookEdit needs the notebook read first (Read is auto-allowed).
  notebook: [
    { type: 'tools', text: 'Let me read the notebook first.', calls: [{ name: 'Read', input: (c) => ({ file_path: abs(c, NOTEBOOK_FILE) }) }] },
    {
      type: 'tools',
      text: 'Now I will edit a cell.',
      calls: [{ name: 'NotebookEdit', input: (c) => ({ notebook_path: abs(c, NOTEBOOK_FILE), cell_id: NOTEBOOK_CELL_ID, new_source: NOTEBOOK_NEW_SOURCE, edit_mode: 'replace' }) }],
    },
  ],
  hello: [{ type: 'text', text: 'Hello from the mock.' }],
};

/** The plan of the plan scenario: two numbered steps, as the model writes them. */
export const PLAN_TEXT = '1. Read notes.txt\n2. Append a line four to it';
/** 60 numbered steps: taller than a 40-row screen. */
export const LONG_PLAN_TEXT = Array.from({ length: 60 }, (_, i) => `${i + 1}. Plan step number ${i + 1}`).join('\n');

/** The `permissions.deny` rule the denyrule scenario runs into. */
export const DENY_RULE = 'Bash(rm:*)';

/** The scenario name in a prompt, e.g. `bash` in "SCENARIO bash please". */
export function scenarioMarker(text: string): string | undefined {
  return /\bSCENARIO ([\w-]+)/.exec(text)?.[1];
}

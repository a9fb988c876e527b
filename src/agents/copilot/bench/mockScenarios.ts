// What the mock Anthropic Messages model answers GitHub Copilot CLI (BYOK mode, provider type
// `anthropic`), scripted for Copilot's own tools (`bash`, `view`, `create`, `edit`, `ask_user`, MCP
// tools as `<server>-<tool>`), passed to startMessagesServer({ scenarios }). The marker convention is
// the mock's: `SCENARIO <name>` in the user's prompt picks the script, reply N answers after the
// model's Nth message of that turn, and once a script is used up the mock summarises the tool
// results it was told (`MOCK FINAL: …`). Measured on 1.0.102 (docs/copilot.md).
import type { MessagesScenario, MockToolUse, ReplyContext } from '../../../lab/mock/anthropicMessages/scenarios.js';
import { SLOW_DELAY_MS } from '../../../lab/mock/anthropicMessages/scenarios.js';

/** The file the edit scenario changes; the env seeds it. */
export const NOTES_FILE = 'notes.txt';
export const NOTES_TEXT = 'line one\noriginal line\nline three\n';
export const EDITED_LINE = 'EDITED BY MOCK';
/** The file the create scenario asks to create. */
export const CREATED_FILE = 'created.txt';
/** A file outside the work dir: the path-access prompt. */
export const OUTSIDE_FILE = '/etc/hostname';
/** The MCP server's name in the env's MCP config, and its one tool (test/fakes/mcp/markerServer.mjs). */
export const MCP_SERVER = 'marker';
export const MCP_TOOL_NAME = 'touch_marker';
/** The file the MCP tool creates when it runs. */
export const MCP_MARKER = 'mcp-marker.txt';
/** The prompt text the user types into "tell Copilot what to do differently". */
export const REASON = 'please use printf instead';

export const WRITE_COMMAND = 'echo mock-bash-ran > bash-out.txt';
export const READ_COMMAND = 'cat notes.txt';
export const PIPE_COMMAND = 'cat notes.txt | wc -l > count.txt';
export const AND_COMMAND = 'mkdir -p out && echo both > out/and.txt';
export const NODE_COMMAND = `node -e "require('fs').writeFileSync('node-out.txt', 'x')"`;
export const SLEEP_COMMAND = 'sleep 30 && echo done-waiting';
export const URL_COMMAND = 'curl -sS -m 5 http://127.0.0.1:9/rec-page';
/** The command the deny-rule scenario runs into (`--deny-tool 'shell(rm)'`). */
export const DENIED_COMMAND = 'rm -f denied.txt';

/** rec rules' proof: a folder a saved `mkdir` approval covers, and a file no approval covers (both prompt otherwise). */
export const RULES_COVERED_DIR = 'rules-covered';
export const RULES_UNCOVERED_FILE = 'rules-uncovered.txt';

const bash = (command: string, description: string): MockToolUse => ({ name: 'bash', input: () => ({ command, description }) });
const abs = (ctx: ReplyContext, file: string): string => `${ctx.workDir}/${file}`;
const one = (text: string, call: MockToolUse): MessagesScenario => [{ type: 'tools', text, calls: [call] }];

export const COPILOT_SCENARIOS: Readonly<Record<string, MessagesScenario>> = {
  bash: one('I will run a command.', bash(WRITE_COMMAND, 'Write a marker file')),
  bashread: one('I will read a file.', bash(READ_COMMAND, 'Show notes.txt')),
  bashpipe: one('I will count lines.', bash(PIPE_COMMAND, 'Count lines of notes.txt')),
  bashand: one('I will make a folder and a file.', bash(AND_COMMAND, 'Make out/and.txt')),
  bashnode: one('I will write a file with node.', bash(NODE_COMMAND, 'Write node-out.txt with node')),
  bashurl: one('I will fetch a page.', bash(URL_COMMAND, 'Fetch a page on loopback')),
  denyrule: one('I will remove a file.', bash(DENIED_COMMAND, 'Remove denied.txt')),
  sleep: one('I will wait.', bash(SLEEP_COMMAND, 'Wait 30 seconds')),
  rulescovered: one('I will make a folder.', bash(`mkdir -p ${RULES_COVERED_DIR}`, 'Make the covered folder')),
  rulesuncovered: one('I will touch a file.', bash(`touch ${RULES_UNCOVERED_FILE}`, 'Touch another file')),
  create: one('I will create a file.', { name: 'create', input: (c) => ({ path: abs(c, CREATED_FILE), file_text: 'created by the mock\n' }) }),
  edit: [
    { type: 'tools', text: 'Let me read the file first.', calls: [{ name: 'view', input: (c) => ({ path: abs(c, NOTES_FILE) }) }] },
    { type: 'tools', text: 'Now I will edit it.', calls: [{ name: 'edit', input: (c) => ({ path: abs(c, NOTES_FILE), old_str: 'original line', new_str: EDITED_LINE }) }] },
  ],
  outside: one('I will read a file outside the folder.', { name: 'view', input: () => ({ path: OUTSIDE_FILE }) }),
  mcp: one('I will call an MCP tool.', { name: `${MCP_SERVER}-${MCP_TOOL_NAME}`, input: () => ({ name: MCP_MARKER }) }),
  askuser: one('I have a question.', {
    name: 'ask_user',
    input: () => ({
      message: 'Which file should I write?',
      requestedSchema: { properties: { file: { type: 'string', title: 'File', enum: ['a.txt', 'b.txt'] } }, required: ['file'] },
    }),
  }),
  parallel: [
    {
      type: 'tools',
      text: 'I will run three commands.',
      calls: [bash('echo one > p1.txt', 'Write p1.txt'), bash('echo two > p2.txt', 'Write p2.txt'), bash('echo three > p3.txt', 'Write p3.txt')],
    },
  ],
  slowtext: [{ type: 'text', text: '', delayMs: SLOW_DELAY_MS, endless: true }],
};

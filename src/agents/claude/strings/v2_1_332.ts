// Claude Code 2.1.332: the texts of 2.1.330, unchanged on screen and in the transcript (checked by the
// real-CLI e2e suite on 2.1.332 and by its recorded fixtures, test/fixtures/claude/2.1.332), and the
// dialogs of WebFetch, an MCP server's tool and NotebookEdit, measured on 2.1.332 (docs/claude-prompts.md),
// and auto mode's refusals, its prompts and its "can't check" dialog (docs/claude-auto-mode.md).
import type { ClaudeStrings } from './schema.js';
import { CLAUDE_2_1_330 } from './v2_1_330.js';

export const CLAUDE_2_1_332: ClaudeStrings = {
  ...CLAUDE_2_1_330,
  version: '2.1.332',
  // Measured on 2.1.332 (recorded bash-long-wrap-approve, 80x24); 2.1.330 was not recorded wrapping a command.
  bodyGutter: /^│ ?/,
  promptTitles: [
    ...CLAUDE_2_1_330.promptTitles,
    // "Claude wants to fetch content from <host>", then the url and prompt between the rules.
    { kind: 'network', pattern: /^Fetch(?: · from the .+ agent)?$/, body: 'tool' },
    // "<server> — <Tool Title>: (MCP)", then the arguments between the rules; any other tool is `Tool use` too.
    { kind: 'mcp', pattern: /^Tool use(?: · from the .+ agent)?$/, detail: /\(MCP\)$/, body: 'tool' },
    // No diff is drawn: the question follows the title.
    { kind: 'edit', pattern: /^Edit notebook(?: · from the .+ agent)?$/, body: 'file' },
  ],
  // A refused NotebookEdit: "⎿  Rejected replace cell in analysis.ipynb at cell cell-a1".
  decisionRows: [...CLAUDE_2_1_330.decisionRows, /^⎿\s+Rejected \w+ cell in /],
  questionFile: /^Do you want to make this edit to (.+)\?$/,
  // "Permission for this action was denied by the Claude Code auto mode classifier. Reason: <explanation>. If you have other tasks…"
  classifierReason: { start: 'auto mode classifier. Reason: ', end: '. If you have other tasks' },
  // Auto mode puts a call to the user (docs/claude-auto-mode.md §4). When its check cannot run and
  // the user stayed in auto mode at the dialog below: a Bash prompt with this note and `❯ No` /
  // `  Yes`, unnumbered (a digit does nothing, nor does y or n; arrows, Enter, Esc and Tab act as at
  // any prompt). After its classifier refused three calls in a row (or 20 in a session): the usual
  // numbered prompt, under a `│` gutter "Auto mode needs your confirmation for this command." and
  // "3 consecutive actions were blocked. …" (or "20 actions were blocked this session.").
  autoModeNotes: [
    { pattern: /^Auto mode can't check actions in this session, so this one needs your approval$/, cause: 'cannot_check', unnumbered: true },
    { pattern: /^Auto mode needs your confirmation for this command\. /, cause: 'breaker' },
  ],
  // "Auto mode can't check actions in this session", then why, then the keys: Enter keeps auto mode
  // (each call that needs the check then gets the prompt above), Shift+Tab leaves for accept edits
  // mode and stops the turn, Esc cancels the turn (measured: y, 1 and the arrows do nothing).
  sessionDialogs: [
    {
      title: /^Auto mode can't check actions in this session$/,
      footer: /^Enter to stay in auto mode · shift\+Tab to leave for .+ and stop · Esc to cancel$/,
      stops: ['esc', 'shift-tab'],
    },
  ],
  // WebFetch's dialog names Esc on its No option, and draws no footer.
  optionHotkey: /\((esc)\)$/,
  optionMeanings: [
    // WebFetch ("… for 127.0.0.1") and MCP ("… for marker — Touch Marker commands in <dir>") write a
    // rule into .claude/settings.local.json (permissionDecision source user_permanent): for good.
    // Bash's "don’t ask again for: node *" (typographic apostrophe) keeps 2.1.330's meaning below.
    { labelPrefix: "Yes, and don't ask again for ", decision: 'approve', scope: 'always' },
    ...CLAUDE_2_1_330.optionMeanings,
  ],
};

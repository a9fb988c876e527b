// Claude Code 2.1.330 (identical to 2.1.328 in these texts), as seen on screen and in the transcript
// (docs/claude.md, the plan dialog: docs/claude-plan.md, and the recordings in test/fixtures/claude/).
import type { ClaudeStrings } from './schema.js';

export const CLAUDE_2_1_330: ClaudeStrings = {
  version: '2.1.330',

  paneRule: /^─{8,}$/,
  bodyRule: /^╌{4,}$/,
  promptTitles: [
    { kind: 'command', pattern: /^Bash command(?: · from the .+ agent)?$/, body: 'command' },
    { kind: 'edit', pattern: /^Edit file(?: · from the .+ agent)?$/, body: 'file' },
    { kind: 'edit', pattern: /^Create file(?: · from the .+ agent)?$/, body: 'file' },
    { kind: 'edit', pattern: /^Write file(?: · from the .+ agent)?$/, body: 'file' },
    // Plan mode's dialog (docs/claude-plan.md): the same whatever the plan's length.
    { kind: 'plan', pattern: /^Exit plan mode\?$/, body: 'plan' },
  ],
  subagentTitle: / · from the (.+) agent$/,
  question: /^Do you want to (?:proceed\?|create .+\?|make this edit to .+\?|.+\?)$|^Claude wants to exit plan mode$/,
  tipRows: [/^Tip: /],
  selectedMarker: '❯',
  optionMeanings: [
    // The transcript records options 2 and 3 alike, as grantScope "session" (docs/claude.md).
    { labelPrefix: 'Yes, and always allow', decision: 'approve', scope: 'session' },
    { labelPrefix: 'Yes, and don’t ask again', decision: 'approve', scope: 'session' },
    { labelPrefix: "Yes, and don't ask again", decision: 'approve', scope: 'session' },
    { labelPrefix: 'Yes, and switch to', decision: 'approve', scope: 'session' },
    { labelPrefix: 'Yes', decision: 'approve', scope: 'once' },
    // A plain No (digit, Enter or Esc) stops the turn; No with a reason typed after Tab lets it go on
    // (the profile tells the two apart by the open feedback field).
    { labelPrefix: 'No', decision: 'reject', endsTurn: true },
  ],
  amendLabels: [
    { label: 'No', placeholder: 'No, and tell Claude what to do differently', typedPrefix: 'No, ' },
    { label: 'Yes', placeholder: 'Yes, and tell Claude what to do next', typedPrefix: 'Yes, ' },
  ],
  amendHint: /\bto amend\b/,
  selectionWraps: false,

  userMessageMarker: /^❯[ \u00a0]/,
  bullet: '● ',
  toolRow: /^● [A-Za-z_][\w.-]*\(/,
  resultRow: /^ {2}⎿/,
  workingMarkers: [/\besc to interrupt\b/, /^\S [^\s…]+…\s\(\d/],
  decisionRows: [/^⎿\s+Rejected Claude's plan:$/, /^⎿\s+Interrupted · /, /^⎿\s+Rejected (?:write|update) to /, /^⎿\s+Not run · /, /^Did not run \d+ calls?$/, /^No result recorded for \d+ calls?$/],
  turnSummaryRow: /^✻ \S+ for \d/,

  harnessText: /^\s*<[a-z][\w-]*[\s>]/,
  interruptedText: '[Request interrupted by user]',
  interruptedForToolText: '[Request interrupted by user for tool use]',
  rejectPrefix: "The user doesn't want to proceed with this tool use.",
  subagentDeniedPrefix: 'Permission for this tool use was denied.',
  userSaid: 'To tell you how to proceed, the user said:\n',
  rejectedToolUseResult: 'User rejected tool use',
};

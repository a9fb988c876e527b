// Codex CLI 0.169.0, as seen on screen (recorded in test/fixtures/codex/0.169.0/) and in its source
// (tui/src/bottom_pane/approval_overlay.rs, tui/src/startup_hooks_review.rs, read, not copied).
import type { CodexStrings } from './schema.js';

const NETWORK_TITLE = /^Do you want to approve network access to "(.+)"\?$/;

export const CODEX_0_169_0: CodexStrings = {
  version: '0.169.0',
  promptTitles: [
    { kind: 'exec', pattern: /^Would you like to run the following command\?$/ },
    { kind: 'exec', pattern: /^Would you like to send input to (the existing )?terminal/ },
    { kind: 'patch', pattern: /^Would you like to make the following edits\?$/ },
    { kind: 'permissions', pattern: /^Would you like to grant these permissions\?$/ },
    { kind: 'network', pattern: NETWORK_TITLE },
    { kind: 'mcp', pattern: /^.+ needs your approval\.$/ },
  ],
  promptFooter: 'Press enter to confirm or esc to cancel',
  detailPrefixes: {
    reason: 'Reason: ',
    environment: 'Environment: ',
    description: 'Description: ',
    destination: 'Destination: ',
  },
  commandPrefix: '$ ',
  selectedMarker: '›',
  // The network prompt, measured on 0.169.0 and 0.171.0 under managed network requirements
  // (docs/codex-prompts.md): its host, and the history rows its decisions leave.
  networkTitle: NETWORK_TITLE,
  networkDecisionLines: ['✔ You approved codex network access to', '✔ You persisted Codex network access to', '✗ You canceled the request for codex network access to'],
  optionHotkey: /\s\(([a-z]+)\)$/,
  optionMeanings: [
    { labelPrefix: 'Yes, proceed', decision: 'approve', scope: 'once' },
    { labelPrefix: 'Yes, just this once', decision: 'approve', scope: 'once' },
    { labelPrefix: 'Yes, grant these permissions for this turn', decision: 'approve', scope: 'once' },
    { labelPrefix: "Yes, and don't ask again for this command in this session", decision: 'approve', scope: 'session' },
    { labelPrefix: "Yes, and don't ask again for these files", decision: 'approve', scope: 'session' },
    { labelPrefix: 'Yes, and allow these permissions for this session', decision: 'approve', scope: 'session' },
    { labelPrefix: 'Yes, and allow this host for this conversation', decision: 'approve', scope: 'session' },
    // The prefix rule is appended to $CODEX_HOME/rules/default.rules and outlives the session.
    { labelPrefix: "Yes, and don't ask again for commands that start with", decision: 'approve', scope: 'always' },
    { labelPrefix: 'Yes, and allow this host in the future', decision: 'approve', scope: 'always' },
    // Only "tell Codex what to do differently" cancels the turn; the other "No" options decline and go on.
    { labelPrefix: 'No, and tell Codex what to do differently', decision: 'reject', endsTurn: true },
    { labelPrefix: 'No, continue without running it', decision: 'reject' },
    { labelPrefix: 'No, continue without permissions', decision: 'reject' },
    { labelPrefix: 'No, and block this host in the future', decision: 'reject' },
    { labelPrefix: 'No', decision: 'reject' },
  ],
  // Its rule, `prefix_rule(pattern=[…], decision="allow")`, is appended to rules/default.rules.
  prefixRuleOption: /^Yes, and don't ask again for commands that start with `(.+)` \(p\)$/,
  hiddenRejectLetters: ['n'],
  selectionWraps: true,

  approvedLine: '✔ You approved codex to',
  canceledLine: '✗ You canceled the request to',
  interruptedLine: '■ Conversation interrupted',
  workingMarker: 'esc to interrupt',

  taskMenuTitle: 'Task is still running',
  taskMenuFooter: 'enter select · esc back',
  taskMenuOptions: [
    { labelPrefix: 'Cancel task', action: 'cancel' },
    { labelPrefix: 'Run in background', action: 'background' },
    { labelPrefix: 'Exit', action: 'exit' },
  ],
  disconnectedLine: 'Disconnected from this task.',
  sessionIdRows: [
    // Measured after Ctrl+C at the composer, Exit and Run in background (samples/sleep-ctrlc-exit.4-final.screen.txt).
    /^To reconnect, run:\ncodex resume ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/,
    // Codex's own words for a quit without its daemon (tui exit messages, read in its source).
    /^To continue this session, run codex resume ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/,
  ],

  hookTrustTitle: 'Hooks need review',
  statusOsc: { ident: 7501, blockedState: 'blocked', statePattern: /(?:^|:)state=([\w-]+)/ },

  agentBullet: '• ',
  userMessageMarker: '› ',
  nonAnswerBullets: [
    /^• (Running|Ran|Exited|Working|Added|Edited|Deleted|Updated|Explored|Waiting|Called|Calling)\b/,
  ],

  turnSummaryRow: /^Worked for /,

  abortedMarker: 'aborted by user',
  harnessText: /^\s*<[a-z_][\w-]*[\s>]/,
  shellWrapper: { shell: /(^|\/)(ba|z)?sh$/, scriptFlag: '-lc' },
  patchFileRow: /^\*\*\* (?:Add|Update|Delete) File: (.+)$/m,
};

// Gemini CLI 0.61.0, as seen on screen (recorded in test/fixtures/gemini/0.61.0/) and in its bundle
// (ToolConfirmationMessage.tsx, scheduler.ts, state-manager.ts, read, not copied).
import type { GeminiStrings } from './schema.js';

export const GEMINI_0_61_0: GeminiStrings = {
  version: '0.61.0',
  banner: /Gemini CLI v(\d+\.\d+\.\d+[\w.-]*)/,
  // One space after the `?` for most tools, two for some (`?  WebFetch Processing URLs…`).
  dialogTitle: /^\? {1,2}(\S+)\s+(.*?)\s*$/,
  batchCounter: /\s(\d+) of (\d+)$/,
  questions: [
    { kind: 'mcp', pattern: /^Allow execution of MCP tool ".*" from server ".*"\?$/ },
    { kind: 'command', pattern: /^Allow execution of \[.*\]\?$/ },
    { kind: 'edit', pattern: /^Apply this change\?$/ },
    { kind: 'network', pattern: /^Do you want to proceed\?$/ },
    { kind: 'permission', pattern: /^To run .*, allow access to the following\?$/ },
  ],
  fileTools: ['Edit', 'WriteFile'],
  writingTo: 'Writing to ',
  selectedMarker: '●',
  optionMeanings: [
    { labelPrefix: 'Allow once', decision: 'approve', scope: 'once' },
    { labelPrefix: 'Allow for this session', decision: 'approve', scope: 'session' },
    { labelPrefix: 'Allow tool for this session', decision: 'approve', scope: 'session' },
    { labelPrefix: 'Allow all server tools for this session', decision: 'approve', scope: 'session' },
    { labelPrefix: 'Allow for this file in all future sessions', decision: 'approve', scope: 'always' },
    { labelPrefix: 'Allow this command for all future sessions', decision: 'approve', scope: 'always' },
    { labelPrefix: 'Allow for all future sessions', decision: 'approve', scope: 'always' },
    { labelPrefix: 'Allow tool for all future sessions', decision: 'approve', scope: 'always' },
    // The scheduler neither runs nor cancels the call: it opens the editor on the proposed change,
    // takes the user's edit as the call's new arguments and asks again (resolveConfirmation loops
    // while the outcome is modify_with_editor; telemetry calls it decision "modify"). The user takes
    // the change over rather than refusing it, so it counts as an approval of the edited change;
    // the label says which option it was, and the dialog shown again is a prompt of its own.
    { labelPrefix: 'Modify with external editor', decision: 'approve', scope: 'once', reasks: true },
    // The outcome is Cancel: the whole request ends ("Request cancelled.").
    { labelPrefix: 'No, suggest changes', decision: 'reject', endsTurn: true },
  ],
  selectionWraps: true,

  workingMarker: '(esc to cancel',
  answerBullet: '✦ ',
  userMessageMarker: ' > ',
  composerPlaceholder: 'Type your message or @path/to/file',
  startupWarning: /^⚠ {1,2}\S/,
  toolRowDone: /^[✓✗x-]\s{1,2}\S/,
  // The executing mark is a spinner toggling ⊶ and ⊷ every 250 ms (cli-spinners' `toggle`).
  toolRowRunning: /^[⊶⊷]\s{1,2}\S/,
  requestCancelled: 'Request cancelled.',

  cancelledPrefix: '[Operation Cancelled] Reason: ',
  reasonDenied: 'User denied execution.',
  reasonSibling: 'User cancelled operation',
  reasonAborted: 'Operation cancelled by user',
  reasonAbortedEarly: 'Operation cancelled',
  policyDenied: 'Tool execution denied by policy',
  sessionContext: /^\s*<session_context>/,
  callIdSeparator: '__',
  // The quit summary's "Interaction Summary" box (samples/screens/*.screen-z-quit.txt).
  sessionIdRow: /^Session ID:\s+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/,
};

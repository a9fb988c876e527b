// Codex CLI 0.171.0: the texts of 0.169.0, unchanged on screen and in the rollout (checked by the
// real-CLI e2e suite on 0.171.0 and by its recorded fixtures, test/fixtures/codex/0.171.0), plus the
// MCP tool approval form measured on 0.171.0 (docs/codex-prompts.md; not measured on 0.169.0), and
// the hook that precedes the network prompt, the outputs of calls its auto-review refused, and what
// it shows and writes when a user's own hook refuses a call.
import type { CodexStrings } from './schema.js';
import { CODEX_0_169_0 } from './v0_169_0.js';

const MCP_TOOL_TITLE = /^Allow the (.+) MCP server to run tool "(.+)"\?$/;

export const CODEX_0_171_0: CodexStrings = {
  ...CODEX_0_169_0,
  version: '0.171.0',
  promptTitles: [...CODEX_0_169_0.promptTitles, { kind: 'mcp', pattern: MCP_TOOL_TITLE }],
  formFooter: 'enter to submit | esc to cancel',
  mcpToolTitle: MCP_TOOL_TITLE,
  // The PermissionRequest hook before the network prompt names the running command and
  // `network-access http://<host>:<port>` (hooks measured on 0.171.0 only).
  networkHookDescription: /^network-access (\S+)$/,
  optionMeanings: [
    // The MCP form's rows are "<label>  <description>"; the parser keeps the label.
    { labelPrefix: 'Allow for this session', decision: 'approve', scope: 'session' },
    // Writes `[mcp_servers.<server>.tools.<tool>] approval_mode = "approve"` to config.toml.
    { labelPrefix: 'Always allow', decision: 'approve', scope: 'always' },
    { labelPrefix: 'Allow', decision: 'approve', scope: 'once' },
    // The call fails with "user cancelled MCP tool call" and the turn goes on.
    { labelPrefix: 'Cancel', decision: 'reject' },
    ...CODEX_0_169_0.optionMeanings,
  ],
  // The output is two content items: "Wall time: …\nOutput:" and the error.
  mcpCancelled: { marker: 'user cancelled MCP tool call', afterHeader: 'Output:' },
  // Auto-review (`--approve-for-me`, `approvals_reviewer = "auto_review"`) and hooks that answer
  // PermissionRequest refuse an exec_command before its process starts; measured on 0.171.0 only.
  harnessRefusal: {
    pattern: /^\w+ failed: CreateProcess \{ message: "Rejected\(\\"([\s\S]*)\\"\)" \}$/,
    reviewer: {
      denied: 'This action was rejected due to unacceptable risk.',
      failed: 'Automatic approval review failed: ',
      timedOut: 'The automatic permission approval review did not finish before its deadline.',
    },
    rationaleStart: '\nReason: ',
    rationaleEnd: '\nThe agent must not attempt',
    // A user's own hooks that answer (docs/codex-auto-review.md §6, measured on 0.171.0 only).
    hookDenied: 'PermissionRequest hook denied approval',
    preToolUseBlocked: { prefix: 'Command blocked by PreToolUse hook: ', commandSeparator: '. Command: ' },
    // A `forbidden` prefix_rule's refusal (docs/codex-auto-review.md §6a, measured on 0.171.0 only).
    ruleForbids: /^`[\s\S]*` rejected: policy forbids commands starting with `([\s\S]+)`$/,
  },
  // A hook's message of 1,906 characters was cut so in the rollout, and drawn whole (0.171.0).
  outputTruncated: /…\d+ chars truncated…/,
  // `• Blocked by hook` / `  └ <the hook's message>` (measured on 0.171.0 only).
  hookBlocked: { title: '• Blocked by hook', detailPrefix: '└ ', lineIndent: '    ' },
  nonAnswerBullets: [...CODEX_0_169_0.nonAnswerBullets, /^• Blocked by hook$/],
};

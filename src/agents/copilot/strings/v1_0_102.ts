// GitHub Copilot CLI 1.0.102, as seen on screen: docs/copilot.md §2 (the boxes, footers and rows),
// §3 (what each option and key does), §5 (the working footer and the armed interrupt), and the
// recordings in test/fixtures/copilot/1.0.102/recorded/.
import type { CopilotStrings } from './schema.js';

const YES = /^Yes$/;
/** The last option of most boxes; while highlighted it is a text field (docs/copilot.md §3). */
const NO_TELL = /^No, and tell Copilot what to do differently \(Esc to stop\)$/;

export const COPILOT_1_0_102: CopilotStrings = {
  version: '1.0.102',
  banner: /\bCopilot v(\d+\.\d+\.\d+[\w.-]*) uses AI\./,

  prompts: [
    {
      kind: 'command',
      question: /^Do you want to run this command\?$/,
      body: 'command',
      // The middle option only for a command whose identifier can be remembered (`mkdir`, `node`, `curl`).
      options: [YES, /^Yes, and don't ask again for .+ in this repo \(.+\)$/, NO_TELL],
    },
    {
      kind: 'edit',
      question: /^Do you want to create (.+)\?$/,
      body: 'file',
      options: [YES, /^Yes, and don't ask again for file operations when in this repo \(.+\)$/, NO_TELL],
    },
    {
      kind: 'edit',
      question: /^Do you want to edit (.+)\?$/,
      body: 'file',
      options: [YES, /^Yes, and don't ask again for file operations when in this repo \(.+\)$/, NO_TELL],
    },
    {
      kind: 'permission',
      question: /^Do you want to allow this\?$/,
      body: 'path',
      options: [YES, /^Yes, and remember this path for this session$/, /^Yes, allow file-tool read-only access to the listed directory for this session$/, /^No \(Esc\)$/],
    },
    {
      kind: 'network',
      question: /^Do you want to allow this access\?$/,
      body: 'url',
      options: [YES, /^Yes, and approve all URLs from ".+" for the rest of the running session$/, /^Yes, and approve all URLs from ".+" permanently$/, NO_TELL],
    },
    {
      kind: 'mcp',
      question: /^Do you want to use this tool\?$/,
      body: 'tool',
      options: [YES, /^Yes, and don't ask again for tool ".+" from ".+" in this repo \(.+\)$/, NO_TELL],
    },
  ],
  promptFooter: /^↑\/↓ to navigate · enter to select · esc to cancel$/,
  queueHeader: /^Permission request \((\d+) remaining\)$/,
  pendingShellRow: '$ Shell ',
  selectedMarker: '❯',
  feedbackOption: { label: 'No, and tell Copilot what to do differently (Esc to stop)', typedSuffix: ' (Esc to stop)' },
  optionHotkey: /\((Esc)\)$/,
  optionMeanings: [
    // Saved in ~/.copilot/permissions-config.json for the repo, read at every start (§6).
    { label: /^Yes, and don't ask again for /, decision: 'approve', scope: 'always' },
    // Written to settings.json `allowedUrls` (§3, §6).
    { label: /^Yes, and approve all URLs from ".+" permanently$/, decision: 'approve', scope: 'always' },
    // Not measured (§11): the label's own words.
    { label: /^Yes, and approve all URLs from ".+" for the rest of the running session$/, decision: 'approve', scope: 'session' },
    { label: /^Yes, and remember this path for this session$/, decision: 'approve', scope: 'session' },
    // Not measured (§11): the label's own words.
    { label: /^Yes, allow file-tool read-only access to the listed directory for this session$/, decision: 'approve', scope: 'session' },
    { label: /^Yes$/, decision: 'approve', scope: 'once' },
    // Enter with a reason typed: refused, and the turn goes on; Esc: refused, and the turn ends (§3).
    // The option is a text field (optionRules.ts sets OptionMeaning.opensField on it).
    { label: /^No, and tell Copilot what to do differently/, decision: 'reject', endsTurn: true },
    // The path prompt's No ends the turn (`abort user_initiated`, §3).
    { label: /^No \(Esc\)$/, decision: 'reject', endsTurn: true },
  ],

  folderTrust: { title: /^Confirm folder trust$/, footer: /^↑\/↓ to navigate · enter to select · esc to cancel$/ },
  askUser: { title: /^Copilot needs information\.$/, footer: /^↑\/↓ select · enter accept · ctrl\+d decline · esc cancel$/ },

  // The first glyph is a spinner (● ◉ ◎ ○). Before the first bytes arrive it reads
  // `Working esc esc edit prompt`; once they stream, `Working · 220 B esc esc interrupt`.
  workingFooter: /^\S Working(?: · |\s+esc\b)/,
  interruptArmed: /\besc again to interrupt$/,
  cancellingFooter: /^\S Cancelling$/,
  userMessage: /^ ❯ (\S.*?)\s{2,}\d{1,2}:\d{2}$/,
  answerBullet: '● ',
  notAnswerRows: [/^● Tip: /, /^● No copilot-instructions\.md found\./, /^● Operation cancelled by user$/],
  toolDetailRow: /^└ /,
  // A ✗ row of a call that failed by itself, or that a rule refused, is no one's key.
  decisionRows: [/^✗ .*\bThe user rejected this tool call\./, /^✗ .*\bOperation aborted by user\b/, /^● Operation cancelled by user$/],
  resumeRow: /\bcopilot --resume=([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/,
};

// @ts-check
// Every GitHub-Copilot-CLI-1.0.102-specific string fake-copilot draws or writes, in one place.
// Sources: docs/copilot.md §2-§9 and the recordings in test/fixtures/copilot/1.0.102/recorded/
// (*.screen.txt for the screens, *.events.jsonl for the file); rec reads the same screen texts from
// src/agents/copilot/strings/v1_0_102.ts.

export const AGENT_VERSION = '1.0.102';

/** `copilot --version`, both lines as the real binary prints them (§1). */
export const versionLines = [`GitHub Copilot CLI ${AGENT_VERSION}.`, "Run 'copilot update' to check for updates."];

/** The model the BYOK recordings ran with: the footer's right edge and every `model` field. */
export const MODEL = 'mock-model';

/** The start screen: tab bar, logo with the version row rec's banner pattern reads, and a note. */
export const header = [
  ' [Current]  Sessions   Issues   Pull requests   Gists',
  '',
  '  ╭─╮╭─╮',
  `  ╰─╯╰─╯  Copilot v${AGENT_VERSION} uses AI.`,
  '  █ ▘▝ █  Check for mistakes.',
  '   ▔▔▔▔ ',
  '',
  ' ● No copilot-instructions.md found. Run /init to generate.',
  '',
];

export const composer = {
  marker: '❯ ',
  rule: '─',
  /** The row above the composer's rule: the folder (the real one adds the git branch when there is one). */
  place: (cwd) => ` ${cwd}`,
  footerIdle: ' ← open sidebar · Interactive · Manual Approval · / commands · ? help · tab next tab',
  footerTyping: ' Interactive · Manual Approval · @ files · # issues',
  ctrlCHint: ' ctrl+c again to exit',
  /** §5: the glyph spins (● ◉ ◎ ○); `· N B` counts the reply's bytes. */
  working: (glyph, bytes) => ` ${glyph} Working · ${bytes} B esc esc interrupt`,
  /** §5: one Esc arms the interrupt for about a second. */
  workingArmed: (glyph, bytes) => ` ${glyph} Working · ${bytes} B esc again to interrupt`,
  spinner: ['●', '◉', '◎', '○'],
};

export const box = {
  question: { shell: 'Do you want to run this command?', write: (path) => `Do you want to create ${path}?`, edit: (path) => `Do you want to edit ${path}?` },
  fileTitle: { write: 'Create file', edit: 'Edit file' },
  selected: '❯ ',
  unselected: '  ',
  footer: '↑/↓ to navigate · enter to select · esc to cancel',
  /** Above the box while prompts wait behind it; the last prompt of a queue has none (§4, §12). */
  queueHeader: (remaining) => `Permission request (${remaining} remaining)`,
  yes: 'Yes',
  rememberCommand: (identifier, repo) => `Yes, and don't ask again for \`${identifier}\` in this repo (${repo})`,
  rememberFiles: (repo) => `Yes, and don't ask again for file operations when in this repo (${repo})`,
  /** While highlighted this option is a text field: typed text replaces the label, the suffix stays. */
  tellCopilot: 'No, and tell Copilot what to do differently (Esc to stop)',
  typedSuffix: ' (Esc to stop)',
};

/**
 * Command words Copilot 1.0.102 judged read-only (`commands[].readOnly`): they offer no "don't ask
 * again" option (§2: `echo x > f` has none, `mkdir`, `node`, `sleep`, `curl` have one). The list is
 * the fake's guess beyond `echo` and `cat`, which were measured.
 */
export const READ_ONLY_COMMANDS = ['echo', 'cat', 'printf', 'ls', 'pwd', 'wc', 'head', 'tail', 'grep', 'true'];

export const history = {
  user: (text) => ` ❯ ${text}`,
  answer: (text) => ` ● ${text}`,
  /** A shell call's row: its description, then (once it ran) a summary of its output; its command under it. */
  shell: (description, summary) => ` $ Shell ${description}${summary ? ` ${summary}` : ''}`,
  command: (command) => `   ${command}`,
  noContent: 'No Content',
  lines: (n) => `${n} line${n === 1 ? '' : 's'}…`,
  pendingFile: (verb, name) => ` ○ ${verb} ${name}`,
  doneFile: (verb, name, added, removed) => ` ● ${verb} ${name} +${added}${removed ? ` -${removed}` : ''}`,
  fileVerb: { write: 'Create', edit: 'Edit' },
  rejected: (what, feedback) => ` ✗ ${what} The user rejected this tool call. User feedback: ${feedback}`,
  aborted: (what) => ` ✗ ${what} Operation aborted by user`,
  approvalCheck: '   Approval check ',
  cancelledShell: (identifier) => `     └ - Confirmation cancelled for shell command${identifier ? ` (${identifier})` : ''}`,
  cancelledWrite: (path) => `     └ - Confirmation cancelled for write (${path})`,
  cancelledTurn: ' ● Operation cancelled by user',
};

/** The summary printed after leaving the alternate screen, only once a message was sent (§9, §12). */
export const exitLines = (sessionId, seconds) => [
  '',
  '  ╭─╮╭─╮   Changes    +0 -0',
  `  ╰─╯╰─╯   Duration   ${seconds}s`,
  '  █ ▘▝ █   Tokens     ↑ 10 • ↓ 10',
  `   ▔▔▔▔    Resume     copilot --resume=${sessionId}`,
];

/** events.jsonl words (§3, §4, §5) and tool shapes (§1). */
export const events = {
  toolNames: { shell: 'bash', write: 'create', edit: 'edit' },
  toolTitles: { shell: 'Running command', write: 'Creating file', edit: 'Editing file' },
  intention: { write: (path) => `create a new file at ${path}.`, edit: (path) => `edit the file at ${path}.` },
  requestIntention: { write: 'Create file', edit: 'Edit file' },
  sessionAborted: 'Session aborted',
  /** Esc Esc while a turn works writes `user_abort`; Ctrl+C, and Esc at a prompt, `user_initiated` (§5). */
  abortEscEsc: 'user_abort',
  abortUser: 'user_initiated',
  rejectedWithFeedback: (feedback) => `The user rejected this tool call. User feedback: ${feedback}`,
  shellResult: (output, shellId, exitCode) => `${output.replace(/\n$/, '')}\n<shellId: ${shellId} completed with exit code ${exitCode}>`,
  created: (path, chars) => `Created file ${path} with ${chars} characters`,
  /** Not measured (no edit was approved in the recordings): the words of the real edit tool's success. */
  edited: (path) => `File ${path} updated with changes.`,
  datetime: (iso) => `<current_datetime>${iso}</current_datetime>\n\n`,
};

// @ts-check
// Every Gemini-CLI-0.61.0-specific string fake-gemini draws or writes, in one place. Sources:
// /work/shared/agents/gemini/README.md and samples/screens/*.txt, samples/*.session.jsonl.

export const AGENT_VERSION = '0.61.0';

export const banner = [' ▝▜▄     Gemini CLI v0.61.0', '   ▝▜▄', '  ▗▟▀    Authenticated with gemini-api-key /auth', ' ▝▀'];

export const composer = {
  placeholder: '   Type your message or @path/to/file',
  marker: ' > ',
  top: '▄',
  bottom: '▀',
  hint: ' Shift+Tab to accept edits',
  ctrlCHint: ' Press Ctrl+C again to exit.',
  footer: (cwd) => [' workspace (/directory)    sandbox       /model', ` ${cwd}    no sandbox    gemini-2.5-flash`],
};

export const dialog = {
  header: (displayName, description) => `? ${displayName}  ${description}`,
  counter: (i, n) => `${i} of ${n}`,
  execQuestion: 'Allow execution of [Shell]?',
  editQuestion: 'Apply this change?',
  selected: '● ',
  unselected: '  ',
  execOptions: [
    { label: 'Allow once', kind: 'approve', scope: 'once' },
    { label: 'Allow for this session', kind: 'approve', scope: 'session' },
    { label: 'No, suggest changes (esc)', kind: 'deny' },
  ],
  editOptions: [
    { label: 'Allow once', kind: 'approve', scope: 'once' },
    { label: 'Allow for this session', kind: 'approve', scope: 'session' },
    { label: 'Modify with external editor', kind: 'approve', scope: 'once' },
    { label: 'No, suggest changes (esc)', kind: 'deny' },
  ],
};

export const history = {
  user: (t) => ` > ${t}`,
  answer: (t) => `✦ ${t}`,
  ok: (name, desc) => `✓  ${name} ${desc}`,
  cancelled: (name, desc) => `-  ${name} ${desc}`,
  running: (name, desc) => `⊷  ${name} ${desc}`,
  requestCancelled: 'ℹ Request cancelled.',
  thinking: (secs) => ` ⠹ Thinking... (esc to cancel, ${secs}s)`,
};

export const exitLines = (id) => ['Agent powering down. Goodbye!', `To resume this session: gemini --resume ${id}`];

export const session = {
  denied: '[Operation Cancelled] Reason: User denied execution.',
  sibling: '[Operation Cancelled] Reason: User cancelled operation',
  byUser: '[Operation Cancelled] Reason: Operation cancelled by user',
  requestCancelled: 'Request cancelled.',
  sessionContext: '<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n(fake-gemini: trimmed)',
  model: 'gemini-2.5-flash',
  toolNames: { shell: 'run_shell_command', write: 'write_file', edit: 'replace' },
  displayNames: { shell: 'Shell', write: 'WriteFile', edit: 'Edit' },
};

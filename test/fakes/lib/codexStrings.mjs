// @ts-check
// Every Codex-0.169.0-specific string the fake draws or writes, in one place: a re-recording of
// a new Codex version changes this file. Sources: /work/shared/agents/codex/README.md and
// samples/*.screen.txt / *.rollout.jsonl (tmux captures and rollouts of the real CLI).

// FAKE_CODEX_VERSION: a version rec was not verified on (a newer Codex), with the same screens.
export const AGENT_VERSION = process.env.FAKE_CODEX_VERSION || '0.169.0';

export const banner = {
  title: `>_ OpenAI Codex (v${AGENT_VERSION})`,
};

export const composer = {
  placeholder: 'Ask Codex to do anything',
  marker: '› ',
  status: (model, cwd) => `${model} default · ${cwd}`,
  hints: '← for agents · ? for shortcuts',
  /** Not in the samples (none pressed Ctrl+C at an idle composer); Codex's footer wording. */
  ctrlCHint: 'ctrl + c again to quit',
};

export const execPrompt = {
  // FAKE_CODEX_EXEC_TITLE: the title a newer Codex might draw instead (rec then cannot read the prompt).
  title: process.env.FAKE_CODEX_EXEC_TITLE || 'Would you like to run the following command?',
  environment: 'Environment: local',
  reasonLabel: 'Reason: ',
  commandPrefix: '$ ',
  options: (prefix) => [
    { label: 'Yes, proceed', hotkey: 'y', decision: 'approved', scope: 'once' },
    {
      label: `Yes, and don't ask again for commands that start with \`${prefix}\``,
      hotkey: 'p',
      decision: 'approved_with_amendment',
      scope: 'session',
    },
    { label: 'No, and tell Codex what to do differently', hotkey: 'esc', decision: 'abort' },
  ],
};

export const patchPrompt = {
  title: 'Would you like to make the following edits?',
  description: 'Description: Apply proposed file edits',
  destinationLabel: 'Destination: ',
  options: () => [
    { label: 'Yes, proceed', hotkey: 'y', decision: 'approved', scope: 'once' },
    { label: "Yes, and don't ask again for these files", hotkey: 'a', decision: 'approved_for_session', scope: 'session' },
    { label: 'No, and tell Codex what to do differently', hotkey: 'esc', decision: 'abort' },
  ],
};

/** Keys that deny at an approval prompt besides the esc option's own hotkey (README §3). */
export const extraDenyKeys = ['n'];

export const promptFooter = 'Press enter to confirm or esc to cancel';
export const selectedMarker = '› ';

/** Codex truncates the command in decision lines to 80 characters, ending in "..." (samples). */
export const SNIPPET_MAX_CHARS = 80;
export function snippet(cmd) {
  const flat = cmd.replace(/\s*\n\s*/g, ' ');
  const chars = [...flat];
  return chars.length > SNIPPET_MAX_CHARS ? chars.slice(0, SNIPPET_MAX_CHARS - 3).join('') + '...' : flat;
}

export const history = {
  userMarker: '› ',
  running: (cmd) => `• Running ${cmd}`,
  ran: (cmd) => `• Ran ${cmd}`,
  exited: (status, cmd) => `• Exited (status ${status}) ${cmd}`,
  outputFirst: '  └ ',
  outputRest: '    ',
  noOutput: '(no output)',
  showDetails: '    + Show details',
  approvedOnce: (cmd) => `✔ You approved codex to run ${snippet(cmd)} this time`,
  approvedAlways: (prefix) => `✔ You approved codex to always run commands that start with ${snippet(prefix)}`,
  canceled: (cmd) => `✗ You canceled the request to run ${snippet(cmd)}`,
  interrupted: '■ Conversation interrupted - use /feedback if something went wrong',
  agentBullet: '• ',
  patchAdded: (name, added) => `• Added ${name} (+${added} -0)`,
  workedFor: (secs, hhmm) => `  Worked for ${secs < 1 ? '<1s' : `${Math.round(secs)}s`} • ${hhmm}`,
};

export const working = (secs) => `• Working (${secs}s • esc to interrupt)`;

export const taskMenu = {
  title: 'Task is still running',
  subtitle: 'Choose what happens to the current task.',
  options: [
    { label: 'Cancel task', description: 'Stop the current task and stay in Codex', action: 'cancel' },
    { label: 'Run in background', description: 'Exit Codex and leave the task running', action: 'background' },
    { label: 'Exit', description: 'Stop the current task and exit Codex', action: 'exit' },
  ],
  footer: 'enter select · esc back',
};

export const exitTexts = {
  stopped: 'Disconnected from this task. The current turn was stopped.',
  background: 'Disconnected from this task. Any running work continues.',
  reconnect: 'To reconnect, run:',
  resume: (id) => `  codex resume ${id}`,
  stopHint: 'Stop the current turn: run codex agents, select this task, and press x.',
  /** Printed after a normal quit; the samples never quit normally, so this follows Codex's own wording. */
  continueSession: (id) => `To continue this session, run codex resume ${id}`,
};

export const rollout = {
  originator: 'codex-tui',
  source: 'vscode',
  abortedByUser: (wallSecs) => `Wall time: ${wallSecs.toFixed(1)} seconds\naborted by user`,
  execOutput: ({ chunkId, exitCode, output }) =>
    `Chunk ID: ${chunkId}\nWall time: 0.0000 seconds\nProcess exited with code ${exitCode}\nOriginal token count: ${Math.ceil(Buffer.byteLength(output) / 4)}\nOutput:\n${output}`,
  patchOutput: (path) =>
    `Wall time: 0.0000 seconds\nOutput:\nExit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nA ${path}\n`,
  patchStdout: (path) => `Success. Updated the following files:\nA ${path}\n`,
  turnAbortedText:
    '<turn_aborted>\nThe user interrupted the previous turn on purpose. Any running unified exec processes may still be running in the background. If any tools/commands were aborted, they may have partially executed.\n</turn_aborted>',
  baseInstructions:
    'You are a coding agent running in the Codex CLI, a terminal-based coding assistant. (fake-codex: instructions trimmed)',
  toolName: 'exec_command',
  yieldTimeMs: 1000,
  sandboxPermissions: 'require_escalated',
  patchCommand: (path, content) =>
    `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${path}\n${content
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => `+${l}`)
      .join('\n')}\n*** End Patch\nEOF`,
  modelContextWindow: 258400,
};

export const mockAnswers = {
  followUp: 'MOCK: ok, noted.',
  final: (outputs) =>
    `MOCK FINAL: got ${outputs.length} tool output(s): ${outputs
      .map((o, i) => `[${i + 1}] ${o.callId}: ${o.output.replace(/\s+/g, ' ')}`)
      .join(' ')}`,
};

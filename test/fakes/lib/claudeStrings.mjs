// @ts-check
// Every Claude-Code-2.1.328-specific string fake-claude draws or writes, in one place. Sources:
// /work/shared/agents/claude/README.md and samples/screens/*.txt, samples/transcript/*.jsonl.
// Note: 2.1.328 has no "No, and tell Claude what to do differently (esc)" option any more; a
// reason is typed with Tab on the highlighted option (README §1).

export const AGENT_VERSION = '2.1.328';

export const banner = (cwd) => [` ▐▛███▛█   Claude Code v${AGENT_VERSION}`, '▝▜██████▀  Opus 5.5 · API Usage Billing', ` ▝▝   ▝▝   ${cwd}`];

export const composer = {
  marker: '❯ ',
  footerIdle: '  ⏸ manual mode on · ? for shortcuts',
  footerBusy: '  ⏸ manual mode on · esc to interrupt',
  ctrlCHint: '  Press Ctrl-C again to exit',
};

export const dialog = {
  bashTitle: ' Bash command',
  tip: ' Tip: auto mode handles these prompts for you — choose "switch to auto mode" below',
  requiresApproval: ' This command requires approval',
  proceed: ' Do you want to proceed?',
  createTitle: ' Create file',
  editTitle: ' Edit file',
  create: (name) => ` Do you want to create ${name}?`,
  edit: (name) => ` Do you want to make this edit to ${name}?`,
  selected: ' ❯ ',
  unselected: '   ',
  footer: ' Esc to cancel · Tab to amend',
  footerAmending: ' Esc to cancel',
  amendNo: 'No, and tell Claude what to do differently',
  amendYes: 'Yes, and tell Claude what to do next',
  bashOptions: (cwd, command) => {
    const writes = />/.test(command);
    return [
      { label: 'Yes', kind: 'approve', scope: 'once' },
      writes
        ? { label: `Yes, and always allow access to ${cwd} from this project`, kind: 'approve', scope: 'session' }
        : { label: `Yes, and don’t ask again for: ${command.split(/\s+/)[0]} *`, kind: 'approve', scope: 'session' },
      { label: 'Yes, and switch to auto mode · auto mode handles these prompts for you', kind: 'approve', scope: 'session' },
      { label: 'No', kind: 'deny' },
    ];
  },
  fileOptions: () => [
    { label: 'Yes', kind: 'approve', scope: 'once' },
    { label: 'Yes, and switch to accept edits (auto-approve file edits and common file commands) for this session (shift+tab)', kind: 'approve', scope: 'session' },
    { label: 'No', kind: 'deny' },
  ],
};

export const history = {
  user: (t) => `❯ ${t}`,
  bullet: (t) => `● ${t}`,
  ranShell: '  Ran 1 shell command',
  didNotRun: '  Did not run 1 call',
  noResult: '  No result recorded for 1 call',
  cmdLine: (c) => `  ⎿  $ ${c}`,
  interrupted: '  ⎿  Interrupted · What should Claude do instead?',
  notRunRejected: '  ⎿  Not run · rejected',
  rejectedWrite: (n) => `  ⎿  Rejected write to ${n}`,
  rejectedUpdate: (n) => `  ⎿  Rejected update to ${n}`,
  wrote: (n) => `  ⎿  Wrote to ${n}`,
  spinner: (secs) => `✽ Working… (${secs}s)`,
  running: (desc, secs) => `● ${desc} · ${secs}s`,
  runningCmd: (c, secs) => `  ⎿  $ ${c} (${secs}s)`,
  background: '     (ctrl+b to run in background)',
};

export const exitLines = (id) => ['Resume this session with:', `claude --resume ${id}`];

export const transcript = {
  rejectStop:
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
  rejectWithReason: (reason) =>
    `The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n${reason}`,
  userRejected: 'User rejected tool use',
  interruptedForTool: '[Request interrupted by user for tool use]',
  interrupted: '[Request interrupted by user]',
  noOutput: '(Bash completed with no output)',
  model: 'claude-opus-5-5',
  toolNames: { shell: 'Bash', write: 'Write', edit: 'Edit' },
};

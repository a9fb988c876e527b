// Codex's conformance scenarios for `rec doctor codex`: the core decisions, each one of the key
// scripts the e2e suite and the fixture recorder use (recordedScenarios.ts), with the rows the e2e
// suite asserts for it. `ran` is left out: it depends on what Codex's rollout says, not on rec.
import { rejectionRow, type ConformanceScenario, type ExpectedRow } from '../../../lab/conformance.js';
import { SLOW_TEXT } from '../../../lab/mock/openaiResponses/scenarios.js';

/** Option labels as Codex 0.169.0 words them (the recorder reads them from agents/codex/strings). */
const YES = 'Yes, proceed (y)';
const NO = 'No, and tell Codex what to do differently (esc)';
const REASON = 'do not write files in the repo';

const prompt: ExpectedRow = { type: 'prompt', kind: 'command', callFromModel: true };
const approvedByY: ExpectedRow = { type: 'approval', kind: 'command', trigger: 'letter', option_label: YES, scope: 'once', callFromModel: true };
const rejected = (trigger: string, optionLabel: string | null, reason: string | null = null): ExpectedRow =>
  rejectionRow({ trigger, optionLabel, reason, reasonSource: 'next_message' });

export const CODEX_CONFORMANCE: readonly ConformanceScenario[] = [
  { script: 'shell-approve-y', name: 'approve (y)', expected: [prompt, approvedByY] },
  { script: 'shell-reject-n', name: 'reject (n)', expected: [prompt, rejected('letter', NO)] },
  { script: 'shell-reject-esc', name: 'reject (Esc)', expected: [prompt, rejected('esc', NO)] },
  { script: 'shell-reject-option3', name: 'reject (option 3)', expected: [prompt, rejected('enter', NO)] },
  { script: 'shell-ctrlc-at-prompt', name: 'reject (Ctrl+C)', expected: [prompt, rejected('ctrl_c', null)] },
  { script: 'shell-reject-then-reason', name: 'reason', expected: [prompt, rejected('esc', NO, REASON)] },
  {
    script: 'parallel-approve-reject',
    name: 'parallel, 1 refused',
    expected: [prompt, approvedByY, prompt, rejected('esc', NO), { type: 'skipped', kind: 'command', callFromModel: true }],
  },
  {
    script: 'sleep-esc-while-running',
    name: 'Esc, command running',
    expected: [prompt, approvedByY, { type: 'interruption', kind: 'tool', trigger: 'esc', option_label: null, callFromModel: true }],
  },
  {
    script: 'text-esc-while-streaming',
    name: 'Esc while streaming',
    expected: [{ type: 'interruption', kind: 'response', trigger: 'esc', option_label: null, partialOf: SLOW_TEXT }],
  },
];

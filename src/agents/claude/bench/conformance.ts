// Claude Code's conformance scenarios for `rec doctor claude`: the core decisions, each one of the
// key scripts the e2e suite and the fixture recorder use (recordedScenarios.ts), with the rows the
// e2e suite asserts for it. `ran` and `native` are left out: they come from Claude Code's
// transcript, not from what rec saw. A streamed answer is not drawn while it streams, so the
// interruption of one carries no partial text to check.
import { rejectionRow, type ConformanceScenario, type ExpectedRow } from '../../../lab/conformance.js';
import { REASON } from './recordedScenarios.js';

/** Option labels as the prompt shows them, without the list number (2.1.330 and 2.1.332). */
export const OPTION = { yes: 'Yes', no: 'No' } as const;

const prompt: ExpectedRow = { type: 'prompt', kind: 'command', callFromModel: true };
const approvedBy1: ExpectedRow = { type: 'approval', kind: 'command', trigger: 'digit', option_label: OPTION.yes, scope: 'once', callFromModel: true };
const rejected = (trigger: string, optionLabel: string | null, reason: string | null = null): ExpectedRow =>
  rejectionRow({ trigger, optionLabel, reason, reasonSource: 'inline' });

export const CLAUDE_CONFORMANCE: readonly ConformanceScenario[] = [
  { script: 'bash-approve-once', name: 'approve (1)', expected: [prompt, approvedBy1] },
  { script: 'bash-reject-digit', name: 'reject (4, No)', expected: [prompt, rejected('digit', OPTION.no)] },
  { script: 'bash-reject-esc', name: 'reject (Esc)', expected: [prompt, rejected('esc', null)] },
  { script: 'bash-reject-reason', name: 'reason (Tab, inline)', expected: [prompt, rejected('tab', OPTION.no, REASON)] },
  {
    script: 'parallel-second-rejected',
    name: 'parallel, 1 refused',
    expected: [prompt, approvedBy1, prompt, rejected('esc', null), { type: 'skipped', kind: 'command', callFromModel: true }],
  },
  {
    script: 'sleep-esc-running',
    name: 'Esc, command running',
    expected: [prompt, approvedBy1, { type: 'interruption', kind: 'tool', trigger: 'esc', option_label: null, callFromModel: true }],
  },
  {
    script: 'slowtext-esc',
    name: 'Esc while streaming',
    expected: [{ type: 'interruption', kind: 'response', trigger: 'esc', option_label: null }],
  },
];

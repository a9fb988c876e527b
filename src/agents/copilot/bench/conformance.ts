// GitHub Copilot CLI's conformance scenarios for `rec doctor copilot`: the core decisions, each one
// of the key scripts the e2e suite and the fixture recorder use (recordedScenarios.ts), with the
// rows the recorder's replays of the real 1.0.102 give for it (test/unit/agents/copilot/recorder.test.ts).
// `ran` is left out: it comes from events.jsonl, not from what rec saw.
import { rejectionRow, type ConformanceScenario, type ExpectedRow } from '../../../lab/conformance.js';
import { REASON } from './mockScenarios.js';

/** The shell prompt's options as 1.0.102 words them (the recorder reads them from agents/copilot/strings). */
export const OPTION = { yes: 'Yes', noAndTell: 'No, and tell Copilot what to do differently (Esc to stop)' } as const;

const prompt: ExpectedRow = { type: 'prompt', kind: 'command', callFromModel: true };
const approvedBy1: ExpectedRow = { type: 'approval', kind: 'command', trigger: 'digit', option_label: OPTION.yes, scope: 'once', callFromModel: true };
const rejected = (trigger: string, optionLabel: string | null, reason: string | null = null): ExpectedRow =>
  rejectionRow({ trigger, optionLabel, reason, reasonSource: 'inline' });
const interruption = (kind: 'tool' | 'response', trigger: string): ExpectedRow => ({ type: 'interruption', kind, trigger, option_label: null, ...(kind === 'tool' ? { callFromModel: true } : {}) });

export const COPILOT_CONFORMANCE: readonly ConformanceScenario[] = [
  { script: 'bash-approve-digit', name: 'approve (1)', expected: [prompt, approvedBy1] },
  { script: 'bash-reject-esc', name: 'reject (Esc)', expected: [prompt, rejected('esc', null)] },
  { script: 'bash-reject-ctrlc', name: 'reject (Ctrl+C)', expected: [prompt, rejected('ctrl_c', null)] },
  { script: 'bash-reject-reason', name: 'reason (2, typed)', expected: [prompt, rejected('digit', OPTION.noAndTell, REASON)] },
  {
    script: 'parallel-second-esc',
    name: 'queue, 1 refused',
    expected: [prompt, approvedBy1, prompt, rejected('esc', null), { type: 'skipped', kind: 'command', callFromModel: true }],
  },
  { script: 'sleep-esc-esc-running', name: 'Esc Esc, command running', expected: [prompt, approvedBy1, interruption('tool', 'esc')] },
  { script: 'slowtext-esc-esc', name: 'Esc Esc while streaming', expected: [interruption('response', 'esc')] },
];

// Gemini's conformance scenarios for `rec doctor gemini`: the core decisions, each one of the key
// scripts the e2e suite and the fixture recorder use (recordedScenarios.ts), with the rows the e2e
// suite asserts for it. `ran` is left out: it depends on what Gemini's session file says, not on rec.
import { rejectionRow, type ConformanceScenario, type ExpectedRow } from '../../../lab/conformance.js';
import { slowWord, STREAM_LEAD } from '../../../lab/mock/googleGenerateContent/scenarios.js';
import { REASON } from './recordedScenarios.js';

/** The dialog's options as Gemini 0.61.0 words them (the recorder reads them from agents/gemini/strings). */
export const OPTION = {
  once: 'Allow once',
  session: 'Allow for this session',
  modify: 'Modify with external editor',
  no: 'No, suggest changes (esc)',
} as const;

/** Far more of the endless slow stream than any cut of it shows. */
const STREAMED = STREAM_LEAD + Array.from({ length: 400 }, (_, i) => slowWord(i + 1)).join('');

const prompt = (kind = 'command'): ExpectedRow => ({ type: 'prompt', kind, callFromModel: true });
const approvedOnce = (trigger: string, kind = 'command'): ExpectedRow => ({ type: 'approval', kind, trigger, option_label: OPTION.once, scope: 'once', callFromModel: true });
const rejected = (trigger: string, o: { optionLabel?: string | null; reason?: string; kind?: string } = {}): ExpectedRow =>
  rejectionRow({
    trigger,
    optionLabel: o.optionLabel === undefined ? OPTION.no : o.optionLabel,
    reason: o.reason ?? null,
    reasonSource: 'next_message',
    ...(o.kind !== undefined ? { kind: o.kind } : {}),
  });

export const GEMINI_CONFORMANCE: readonly ConformanceScenario[] = [
  { script: 'shell-approve-enter', name: 'approve (Enter)', expected: [prompt(), approvedOnce('enter')] },
  { script: 'shell-reject-digit', name: 'reject (3)', expected: [prompt(), rejected('digit')] },
  { script: 'shell-reject-down-enter', name: 'reject (option 3)', expected: [prompt(), rejected('enter')] },
  { script: 'shell-reject-esc', name: 'reject (Esc)', expected: [prompt(), rejected('esc')] },
  { script: 'shell-ctrlc-at-dialog', name: 'reject (Ctrl+C)', expected: [prompt(), rejected('ctrl_c', { optionLabel: null })] },
  { script: 'shell-reject-then-reason', name: 'reason', expected: [prompt(), rejected('esc', { reason: REASON })] },
  {
    script: 'parallel-writes-approve-then-reject',
    name: 'parallel, 1 refused',
    expected: [prompt('edit'), approvedOnce('enter', 'edit'), prompt('edit'), rejected('esc', { kind: 'edit' })],
  },
  {
    script: 'parallel-writes-reject-first',
    name: 'parallel, rest skipped',
    expected: [prompt('edit'), rejected('esc', { kind: 'edit' }), { type: 'skipped', kind: 'edit', callFromModel: true }],
  },
  {
    script: 'long-esc-running',
    name: 'Esc, command running',
    expected: [prompt(), approvedOnce('enter'), { type: 'interruption', kind: 'tool', trigger: 'esc', option_label: null, callFromModel: true }],
  },
  {
    script: 'stream-esc',
    name: 'Esc while streaming',
    expected: [{ type: 'interruption', kind: 'response', trigger: 'esc', option_label: null, partialOf: STREAMED }],
  },
];

// Golden tests: the merged output of a recorded session per agent and scenario, compared field by
// field with a checked-in golden (paths normalised). Regenerate with UPDATE_GOLDEN=1 after a
// deliberate change, and review the diff; without it no golden is written, and a missing one fails.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeCommand } from '../../../src/commands/merge.js';
import { LOGS } from '../../support/fixturePaths.js';
import { SidecarFixture } from '../../support/sidecarFixture.js';
import { updatingGoldens } from '../../support/golden.js';
import { runCommand } from '../../support/runCommand.js';

const GOLDEN = join(LOGS, 'golden');
const update = updatingGoldens();

/** What a Codex 0.169.0 command prompt showed (its options and keys), as the recorder stores it. */
const codexPrompt = (command: string) => ({
  title: 'Would you like to run the following command?',
  details: { command },
  options: [
    { label: 'Yes, proceed (y)', key: 'y' },
    { label: `Yes, and don't ask again for commands that start with \`${command}\` (p)`, key: 'p' },
    { label: 'No, and tell Codex what to do differently (esc)', key: 'esc' },
  ],
});

const db = new SidecarFixture()
  .addRun({ id: 'run-codex', agent: 'codex', agent_session_id: '01a20297-fe18-73c2-8d27-8edc2226f3ed' })
  .addEvent({ id: 'p1', run_id: 'run-codex', type: 'prompt', ts: '2026-11-22T09:30:46.000Z', kind: 'command', prompt: codexPrompt('echo one > $BASE/work/p1.txt') })
  .addEvent({ id: 'c1', run_id: 'run-codex', type: 'approval', ts: '2026-11-22T09:30:47.000Z', call_id: 'call_e1ccd69ce04e9d91', decided_by: 'user', trigger: 'letter', option_label: 'Yes, proceed (y)', scope: 'once', ran: 'yes', prompt_event_id: 'p1' })
  .addEvent({ id: 'p2', run_id: 'run-codex', type: 'prompt', ts: '2026-11-22T09:30:48.000Z', kind: 'command', prompt: codexPrompt('echo two > $BASE/work/p2.txt') })
  .addEvent({ id: 'c2', run_id: 'run-codex', type: 'rejection', ts: '2026-11-22T09:30:49.000Z', call_id: 'call_0dc7b07af1361e99', kind: 'command', decided_by: 'user', trigger: 'esc', option_label: 'No, and tell Codex what to do differently (esc)', ran: 'no', prompt_event_id: 'p2' })
  .addEvent({ id: 'c3', run_id: 'run-codex', type: 'skipped', ts: '2026-11-22T09:30:49.001Z', call_id: 'call_07f86a5175e92cb6', related_call_id: 'call_0dc7b07af1361e99', ran: 'no' })
  .addRun({ id: 'run-claude', agent: 'claude', agent_session_id: '7c9876ed-9741-42c2-83ab-75da0d31c136' })
  .addEvent({ id: 'k1', run_id: 'run-claude', type: 'interruption', ts: '2026-11-22T09:31:34.380Z', call_id: 'toolu_mockmwrn0kg20003', kind: 'tool', trigger: 'esc', partial_output: '' });
db.close();
afterAll(() => db.remove());

const CASES: Array<[string, string, boolean]> = [
  ['codex', 'shell-deny-esc.rollout.jsonl', false],
  ['codex', 'parallel-approve-deny.rollout.jsonl', true],
  ['gemini', 'parallel-esc-first.session.jsonl', false],
  ['gemini', 'shell-esc-then-feedback.session.jsonl', false],
  ['claude', '05-bash-reject-with-reason.jsonl', false],
  ['claude', '07-bash-running-Esc.jsonl', true],
  ['claude', '13-parallel-reject-first-No.jsonl', false],
];

describe('golden merged sessions (codex 0.169.0, gemini 0.61.0, claude 2.1.328)', () => {
  for (const [agent, name, withSidecar] of CASES) {
    it(`${agent} ${name} ${withSidecar ? 'with' : 'without'} a sidecar`, async () => {
      const r = await runCommand(mergeCommand, [join(LOGS, agent, name), '--db', withSidecar ? db.path : '/nonexistent/rec.db']);
      expect(r.code, r.stderr).toBe(0);
      // The store names events itself: the goldens name them by the labels given above.
      const actual: unknown = JSON.parse(db.labelIds(r.stdout.split(LOGS).join('<LOGS>/')));
      const golden = join(GOLDEN, `${agent}-${name.replace(/\.jsonl$/, '')}${withSidecar ? '-sidecar' : ''}.json`);
      if (update) {
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(golden, `${JSON.stringify(actual, null, 2)}\n`);
      }
      // A missing golden is a failure, not a new golden: only UPDATE_GOLDEN=1 writes one.
      expect(existsSync(golden), `${golden} is missing; write it with UPDATE_GOLDEN=1 and review it`).toBe(true);
      expect(actual).toEqual(JSON.parse(readFileSync(golden, 'utf8')));
    });
  }
});

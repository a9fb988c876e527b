// The Codex reader on every rollout the real Codex CLI wrote in the recorded scenarios, every verified
// version's (test/fixtures/codex/<version>/recorded, by scripts/record-codex-fixtures.mjs): calls,
// their arguments and outputs as the e2e suite reads them, and what the file alone says about each fate.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { harnessRefusalOf } from '../../../../src/agents/codex/harnessRefusal.js';
import { codexStringsFor } from '../../../../src/agents/codex/strings/index.js';
import { readSessionFile } from '../../../../src/merge/readSession.js';
import { readRolloutCalls, REFUSED_OUTPUT } from '../../../support/codex/rolloutCalls.js';
import { RECORDED_BY_VERSION } from '../../../support/codex/recordedRun.js';

for (const { version, recorded } of RECORDED_BY_VERSION) {
  const RECORDED = `${recorded}/`;
  const NAMES = readdirSync(RECORDED)
    .filter((f) => f.endsWith('.rollout.jsonl'))
    .map((f) => f.slice(0, -'.rollout.jsonl'.length))
    .sort();

  describe(`codex ${version} rollouts recorded from the real CLI`, () => {
    it('there are recordings to read', () => {
      expect(NAMES.length).toBeGreaterThanOrEqual(15);
    });

    for (const name of NAMES) {
      it(`${name}: read without diagnostics; calls, inputs and fates as the rollout says`, async () => {
        const file = `${RECORDED}${name}.rollout.jsonl`;
        const r = await readSessionFile(file);
        expect(r.diagnostics).toEqual([]);
        const s = r.session!;
        expect(s.diagnostics).toEqual([]);
        expect(s).toMatchObject({ agent: 'codex', agent_version: version, cwd: '/tmp/rec-codex-fx/work', readable: true });
        expect(s.session_id).toMatch(/^[0-9a-f-]{36}$/);
        // Every record type of the version is known: nothing is kept raw.
        expect(s.unknown_records).toEqual([]);

        const calls = readRolloutCalls(file);
        expect(s.calls.map((c) => [c.call_id, c.tool_name, c.tool_input])).toEqual(calls.map((c) => [c.callId, c.name, c.args]));
        expect(s.calls.map((c) => c.fate)).toEqual(calls.map((c) => (c.ranPerRollout ? 'ran' : 'unknown')));
        // Refused before it ran, by a hook of the user's (the hook-* recordings): no person's refusal.
        const refusedByHarness = calls.filter((c) => harnessRefusalOf(c.output ?? '', codexStringsFor(version)) !== undefined);
        const results = s.messages.flatMap((m) => m.tool_results);
        expect(results.map((x) => [x.call_id, x.output, x.is_error])).toEqual(
          calls.map((c) => [c.callId, c.output, REFUSED_OUTPUT.test(c.output ?? '') || refusedByHarness.includes(c)]),
        );
        expect(s.findings.filter((f) => f.type === 'rejection').map((f) => f.call_id)).toEqual(refusedByHarness.map((c) => c.callId));

        // Each aborted call is one finding of unknown fate; a turn cut with no call is an interruption.
        // A command whose fetch was refused at Codex's network prompt ran and was aborted both.
        const aborted = calls.filter((c) => !refusedByHarness.includes(c) && (!c.ranPerRollout || REFUSED_OUTPUT.test(c.output ?? '')));
        expect(s.findings.filter((f) => f.type === 'unknown').map((f) => f.call_id)).toEqual(aborted.map((c) => c.callId));
        const turnCuts = s.findings.filter((f) => f.type === 'interruption');
        // (The recordings have one aborted turn at most.)
        const turnAborted = readFileSync(file, 'utf8').includes('"type":"turn_aborted"');
        expect(turnCuts).toHaveLength(turnAborted && aborted.length === 0 ? 1 : 0);
        expect(s.findings).toHaveLength(aborted.length + turnCuts.length + refusedByHarness.length);
      });
    }

    it('the harness-written messages are synthetic, the person\'s are not', async () => {
      const s = (await readSessionFile(`${RECORDED}shell-reject-then-reason.rollout.jsonl`)).session!;
      const users = s.messages.filter((m) => m.role === 'user').map((m) => [m.text?.slice(0, 20), m.synthetic]);
      expect(users).toEqual([
        ['<environment_context', true],
        ['SCN=shell please wri', false],
        ['<turn_aborted>\nThe u', true],
        ['do not write files i', false],
      ]);
    });
  });
}

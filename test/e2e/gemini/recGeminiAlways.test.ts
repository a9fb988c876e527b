// `rec gemini` on the REAL Gemini CLI with `security.enablePermanentToolApproval` on: the shell
// dialog offers "Allow this command for all future sessions", Gemini saves a `[[rule]]` table to
// ~/.gemini/policies/auto-saved.toml, and rec records the approval with scope always and that
// table, read back, in native.permission_rule (docs/gemini.md). One run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { press } from '../../../src/lab/driver.js';
import { promptFor, SCREEN } from '../../../src/agents/gemini/bench/recordedScenarios.js';
import { expectJourneys } from '../../support/journey.js';
import { AGENT_VERSION } from '../../support/gemini/env.js';
import { approvalRow, expectDecisionsLinked, OPTION, promptRow, view } from '../../support/gemini/expectedRows.js';
import { assertBuilt, startRec, STEP_TIMEOUT_MS, waitReady, type RecSession } from '../../support/gemini/recSession.js';
import type { SessionToolCall } from '../../support/gemini/sessionSnapshots.js';

/** Gemini's start, one model turn, the quit: generous for two loaded cores. */
const TEST_TIMEOUT_MS = 240_000;
/** The third option, with the file it names (the option's own words, then the path). */
const ALWAYS = 'Allow this command for all future sessions ~/.gemini/policies/auto-saved.toml';
/** What Gemini 0.61.0 saved for `touch shell_marker.txt`, verbatim. */
const SAVED = [
  '[[rule]]',
  'decision = "allow"',
  'priority = 950',
  'toolName = "run_shell_command"',
  'commandPrefix = [ "touch" ]',
  'modes = [ "default", "autoEdit", "yolo" ]',
  '',
].join('\n');

let session: RecSession | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

describe(`rec gemini on the real Gemini CLI ${AGENT_VERSION}: allow for all future sessions`, () => {
  it('3 at the shell dialog approves with scope always; the rule Gemini saved is in native.permission_rule; merge and stats keep it', async () => {
    const s = (session = await startRec({ permanentToolApproval: true }));
    await waitReady(s);
    await s.driver.line(promptFor('shell'));
    await s.driver.waitScreen(/Allow this command for all future sessions[\s\S]*No, suggest changes \(esc\)/, 'dialog');
    await press(s.driver, '3');
    await s.driver.waitScreen(SCREEN.final, 'done');
    const [call] = (await s.snapshots.waitForToolCalls(1, STEP_TIMEOUT_MS)) as [SessionToolCall];
    expect(call.status).toBe('success');
    expect((await s.quit()).exitCode).toBe(0);
    expect(s.server.requests.filter((r) => r.kind === 'guard' || r.kind === 'denied')).toEqual([]);

    const saved = readFileSync(join(s.env.home, '.gemini', 'policies', 'auto-saved.toml'), 'utf8');
    expect(saved).toBe(SAVED);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'digit', option_label: ALWAYS, scope: 'always', ran: 'yes' }),
    ]);
    expectDecisionsLinked(rows);
    expect(rows[0]!.prompt).toMatchObject({ options: [{ label: OPTION.once }, { label: OPTION.session }, { label: ALWAYS }, { label: OPTION.no }] });
    expect(rows.find((r) => r.type === 'approval')!.native).toMatchObject({ permission_rule: saved.trim() });

    const [journey] = await expectJourneys(s.dbPath, s.env.env);
    expect(journey!.merged.flatMap((m) => m.approvals).map((a) => [a.call_id, a.scope, a.option_label])).toEqual([[call.callId, 'always', ALWAYS]]);
    expect(journey!.stats.approvals).toBe(1);
    expect(journey!.stats.rejections.total).toBe(0);
  }, TEST_TIMEOUT_MS);
});

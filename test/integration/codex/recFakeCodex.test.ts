// rec codex over fake-codex (test/fakes) under a real pty: the whole pipeline — pty, screen model,
// the Codex adapter, the sidecar — without the real CLI, fast enough to stress what the real one
// cannot: kill -9 right after a decisive key, and several runs writing one database at once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecSandbox, REPO_ROOT, type RecSandbox } from '../../support/rec.js';
import { queryRows, waitForRows } from '../../support/sidecarRows.js';
import { verifiedVersions } from '../../support/agentVersions.js';

const FAKES_BIN = join(REPO_ROOT, 'test', 'fakes', 'bin');
const PROMPT = 'Press enter to confirm or esc to cancel';

let sandbox: RecSandbox;
beforeEach(() => {
  sandbox = createRecSandbox({ PATH: `${FAKES_BIN}:${process.env.PATH}`, CODEX_HOME: '' });
  sandbox.env.CODEX_HOME = join(sandbox.dir, 'codex-home');
});
afterEach(() => sandbox.dispose());

function startFakeCodex(scenario = 'shell') {
  return sandbox.spawnRec(['codex', '--scenario', scenario], { cols: 120, rows: 40 });
}

/** A run that shows the shell prompt, rejects it with Esc once recorded, and quits Codex. */
async function rejectAtPromptThenQuit() {
    const rec = startFakeCodex();
    await rec.expectScreen(PROMPT);
    await waitForRows(sandbox.dbPath, "select id from events where type = 'prompt'", (r) => r.length === 1);
    rec.sendKey('esc');
    await rec.expectScreen('✗ You canceled the request to run');
    rec.sendLine('/quit');
  return rec;
}

describe('rec codex over fake-codex', () => {
  it('an Esc rejection is durable before Codex sees the key: kill -9 of rec right after loses nothing', async () => {
    const rec = startFakeCodex();
    await rec.expectScreen(PROMPT);
    // The recorder has seen the prompt once its prompt event is in the database.
    await waitForRows(sandbox.dbPath, "select id from events where type = 'prompt'", (r) => r.length === 1);
    rec.sendKey('esc');
    // Codex reacting proves rec forwarded the key, which it does only after committing the event.
    await rec.expectScreen('✗ You canceled the request to run');
    rec.kill('SIGKILL');
    await rec.expectExit();
    const rows = queryRows(sandbox.dbPath, "select type, kind, trigger, option_label from events where type = 'rejection'");
    expect(rows).toEqual([
      { type: 'rejection', kind: 'command', trigger: 'esc', option_label: 'No, and tell Codex what to do differently (esc)' },
    ]);
  });

  it('four concurrent runs into one database lose nothing', async () => {
    const recs = [0, 1, 2, 3].map(() => startFakeCodex());
    await Promise.all(recs.map((r) => r.expectScreen(PROMPT)));
    await waitForRows(sandbox.dbPath, "select id from events where type = 'prompt'", (r) => r.length === 4);
    recs.forEach((r, i) => (i % 2 === 0 ? r.send('y') : r.sendKey('esc')));
    await waitForRows(sandbox.dbPath, "select id from events where type in ('approval', 'rejection')", (r) => r.length === 4);
    await Promise.all(
      recs.map((r, i) => r.expectScreen(i % 2 === 0 ? 'MOCK FINAL' : '■ Conversation interrupted')),
    );
    for (const r of recs) r.sendLine('/quit');
    await Promise.all(recs.map((r) => r.expectExit()));
    // What was typed into the composer is never recorded: still exactly the four decisions.
    const runs = queryRows(sandbox.dbPath, 'select id, ended_at from runs');
    expect(runs).toHaveLength(4);
    expect(runs.every((r) => r.ended_at)).toBe(true);
    const decisions = queryRows(
      sandbox.dbPath,
      "select run_id, type, trigger, call_id from events where type in ('approval', 'rejection') order by type",
    );
    expect(decisions.map((d) => [d.type, d.trigger])).toEqual([
      ['approval', 'letter'],
      ['approval', 'letter'],
      ['rejection', 'esc'],
      ['rejection', 'esc'],
    ]);
    expect(decisions.every((d) => typeof d.call_id === 'string' && d.call_id.startsWith('call_'))).toBe(true);
    expect(new Set(decisions.map((d) => d.run_id)).size).toBe(4);
  });

  it('the next message after a rejection becomes its reason, and composer keys are never recorded', async () => {
    const rec = startFakeCodex();
    await rec.expectScreen(PROMPT);
    await waitForRows(sandbox.dbPath, "select id from events where type = 'prompt'", (r) => r.length === 1);
    rec.send('n');
    await rec.expectScreen('■ Conversation interrupted');
    // Letters that are Codex's decision keys at a prompt (n, y, p, a) are plain text here.
    rec.sendLine('no, do not write in the repo; say why and pay attention');
    const rows = await waitForRows(
      sandbox.dbPath,
      "select type, trigger, reason, reason_source from events where type != 'prompt'",
      (r) => r.some((e) => e.reason_source === 'next_message'),
    );
    expect(rows).toEqual([
      { type: 'rejection', trigger: 'letter', reason: 'no, do not write in the repo; say why and pay attention', reason_source: 'next_message' },
    ]);
    rec.sendLine('/quit');
    await rec.expectExit();
    expect(queryRows(sandbox.dbPath, "select type from events where type != 'prompt'")).toHaveLength(1);
  });

  it('a Codex version rec was not verified on runs untouched: its run and events are marked, and rec says so once after it', async () => {
    sandbox.env.FAKE_CODEX_VERSION = '0.170.0';
    const rec = await rejectAtPromptThenQuit();
    expect(await rec.expectExit()).toEqual({ exitCode: 0 });
    expect(queryRows(sandbox.dbPath, 'select agent_version, agent_version_verified from runs')).toEqual([
      { agent_version: '0.170.0', agent_version_verified: 0 },
    ]);
    const events = queryRows(sandbox.dbPath, 'select type, agent_version, agent_version_verified from events order by ts');
    expect(events.map((e) => e.type)).toEqual(['prompt', 'rejection']);
    expect(events.every((e) => e.agent_version === '0.170.0' && e.agent_version_verified === 0)).toBe(true);
    const verified = verifiedVersions('codex').map((v) => v.version).join(', ');
    const notice = `rec: codex 0.170.0 is not a version rec was verified on (${verified}); its events are marked agent_version_verified=false`;
    expect(rec.output.split(notice)).toHaveLength(2);
  });

  it('on the version rec was verified on, the run and events are marked verified and rec says nothing about it', async () => {
    const rec = await rejectAtPromptThenQuit();
    await rec.expectExit();
    expect(queryRows(sandbox.dbPath, 'select agent_version, agent_version_verified from runs')).toEqual([
      { agent_version: '0.169.0', agent_version_verified: 1 },
    ]);
    expect(queryRows(sandbox.dbPath, 'select distinct agent_version_verified from events')).toEqual([{ agent_version_verified: 1 }]);
    expect(rec.output).not.toContain('verified on');
  });
});

describe('rec codex over fake-codex: a prompt screen rec cannot read', () => {
  it('the refusal the rollout shows becomes a miss, and rec says so once after the agent exits', async () => {
    sandbox.env.FAKE_CODEX_VERSION = '0.170.0';
    sandbox.env.FAKE_CODEX_EXEC_TITLE = 'Would you care to run the following command?';
    const rec = startFakeCodex();
    await rec.expectScreen(PROMPT);
    rec.sendKey('esc');
    await rec.expectScreen('✗ You canceled the request to run');
    rec.sendLine('/quit');
    await rec.expectExit();
    const rows = queryRows(sandbox.dbPath, "select type, json_extract(native, '$.decision') as decision from events");
    expect(rows).toEqual([{ type: 'miss', decision: 'aborted by user' }]);
    const notice = 'rec: missed 1 of 1 decision Codex 0.170.0 recorded;\nrec: run `rec doctor codex` to check rec on this version';
    expect(rec.output.replace(/\r\n/g, '\n').split(notice)).toHaveLength(2);
  });
});

describe('rec codex over fake-codex: two sessions in one folder that nothing tells apart', () => {
  /** The agent rec started (its only child: the launcher execs node). */
  function agentPid(recPid: number): number {
    const children = readFileSync(`/proc/${recPid}/task/${recPid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    expect(children).toHaveLength(1);
    return children[0]!;
  }

  it('each run keeps its refusal without a call id, marked ambiguous, and says so once after the agent is gone', async () => {
    const recs = [0, 1].map(() => startFakeCodex());
    await Promise.all(recs.map((r) => r.expectScreen(PROMPT)));
    await waitForRows(sandbox.dbPath, "select id from events where type = 'prompt'", (r) => r.length === 2);
    for (const r of recs) r.sendKey('esc');
    await Promise.all(recs.map((r) => r.expectScreen('✗ You canceled the request to run')));
    // Killed, the agents print no "codex resume <id>": nothing names either session.
    for (const r of recs) process.kill(agentPid(r.pid), 'SIGKILL');
    await Promise.all(recs.map((r) => r.expectExit()));
    const rejections = queryRows(sandbox.dbPath, "select run_id, call_id, json_extract(native, '$.session') as session from events where type = 'rejection'");
    expect(rejections).toHaveLength(2);
    expect(rejections.every((e) => e.call_id === null && e.session === 'ambiguous')).toBe(true);
    for (const r of recs) {
      expect(r.output.split('session files in this folder fitted this run equally')).toHaveLength(2);
      expect(r.output).toContain('1 decision keeps no call id');
    }
  });
});

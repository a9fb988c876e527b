// rec claude over fake-claude (test/fakes) under a real pty: the whole pipeline — the launch
// (--session-id, --settings), pty, screen model, the Claude recorder, the sidecar — without the real
// CLI. The fake ignores --settings (no hooks fire): the recorder finds the transcript by the session id.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecSandbox, REPO_ROOT, type RecSandbox } from '../../support/rec.js';
import { queryRows, waitForRows } from '../../support/sidecarRows.js';

const FAKES_BIN = join(REPO_ROOT, 'test', 'fakes', 'bin');
const QUESTION = 'Do you want to proceed?';

let sandbox: RecSandbox;
beforeEach(() => {
  sandbox = createRecSandbox({ PATH: `${FAKES_BIN}:${process.env.PATH}` });
});
afterEach(() => sandbox.dispose());

async function atPrompt(scenario = 'shell', extraArgs: readonly string[] = []) {
  const rec = sandbox.spawnRec(['claude', ...extraArgs, '--scenario', scenario], { cols: 120, rows: 45 });
  await rec.expectScreen(QUESTION);
  // The recorder has seen the prompt once its prompt event is in the database.
  await waitForRows(sandbox.dbPath, "select id from events where type = 'prompt'", (r) => r.length === 1);
  return rec;
}

const decisions = () => queryRows(sandbox.dbPath, "select type, kind, trigger, option_label, reason, reason_source, call_id, ran from events where type != 'prompt' order by ts");

describe('rec claude over fake-claude', () => {
  it('Esc at the prompt: a rejection with trigger esc and no option (Esc is not one), bound to the transcript’s tool_use id; the run carries the session id rec gave Claude', async () => {
    const rec = await atPrompt();
    rec.sendKey('esc');
    await rec.expectScreen('Interrupted · What should Claude do instead?');
    const rows = await waitForRows(sandbox.dbPath, "select type, trigger, option_label, call_id from events where type = 'rejection'", (r) => r.length === 1 && r[0]!.call_id !== null);
    expect(rows).toEqual([{ type: 'rejection', trigger: 'esc', option_label: null, call_id: expect.stringMatching(/^toolu_/) }]);
    rec.sendControl('c');
    rec.sendControl('c');
    await rec.expectExit();
    const [run] = queryRows(sandbox.dbPath, 'select agent, agent_session_id from runs');
    expect(run).toEqual({ agent: 'claude', agent_session_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('Ctrl+C at the prompt records nothing; 1 then approves once and the call ran', async () => {
    const rec = await atPrompt();
    rec.sendControl('c');
    rec.send('1');
    await waitForRows(sandbox.dbPath, "select ran from events where type = 'approval'", (r) => r.length === 1 && r[0]!.ran === 'yes');
    expect(decisions()).toEqual([expect.objectContaining({ type: 'approval', kind: 'command', trigger: 'digit', option_label: 'Yes', ran: 'yes' })]);
  });

  it('Down to No, Tab, a reason, Enter: a rejection with trigger tab and the reason inline', async () => {
    const rec = await atPrompt();
    for (const k of ['down', 'down', 'down'] as const) rec.sendKey(k);
    await rec.expectScreen('❯ 4. No');
    rec.sendKey('tab');
    await rec.expectScreen('No, and tell Claude what to do differently');
    rec.send('use printf');
    await rec.expectScreen('No, use printf');
    rec.sendKey('enter');
    const rows = await waitForRows(sandbox.dbPath, "select reason from events where type = 'rejection'", (r) => r.length === 1 && r[0]!.reason !== null);
    expect(rows).toEqual([{ reason: 'use printf' }]);
    expect(decisions()).toEqual([expect.objectContaining({ type: 'rejection', trigger: 'tab', option_label: 'No', reason: 'use printf', reason_source: 'inline', ran: 'no' })]);
  });

  it('a --settings file of the user that cannot be read is passed on as it is, and rec says once, after Claude exits, that it added no hooks', async () => {
    const missing = join(sandbox.dir, 'no-such-settings.json');
    const rec = await atPrompt('shell', ['--settings', missing]);
    const note = `rec: claude: cannot read --settings file ${missing}: `;
    expect(rec.output).not.toContain(note);
    rec.send('1');
    await waitForRows(sandbox.dbPath, "select ran from events where type = 'approval'", (r) => r.length === 1 && r[0]!.ran === 'yes');
    rec.sendControl('c');
    rec.sendControl('c');
    expect(await rec.expectExit()).toEqual({ exitCode: 0 });
    expect(rec.output.split(note)).toHaveLength(2);
    expect(rec.output).toContain("passed to Claude as it is, with none of rec's hooks");
  });
});

// REC_EXPORT_OTLP: `rec codex` over fake-codex under a real pty exports the run's decisions once the
// agent has exited, from a detached child: the receiver gets them, the exit status is the agent's and
// nothing of the export reaches the terminal; a failing export lands in the debug log only.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecSandbox, REPO_ROOT, type RecSandbox } from '../../support/rec.js';
import { OtlpReceiver } from '../../support/otlpReceiver.js';
import { pollUntil } from '../../../src/lab/pollUntil.js';
import { waitForRows } from '../../support/sidecarRows.js';

const FAKES_BIN = join(REPO_ROOT, 'test', 'fakes', 'bin');
const PROMPT = 'Press enter to confirm or esc to cancel';

let sandbox: RecSandbox;
beforeEach(() => {
  sandbox = createRecSandbox({ PATH: `${FAKES_BIN}:${process.env.PATH}`, CODEX_HOME: '' });
  sandbox.env.CODEX_HOME = join(sandbox.dir, 'codex-home');
});
afterEach(() => sandbox.dispose());

/** rec codex: the shell prompt rejected with Esc, then /quit; returns the exit status and the screen. */
async function rejectAndQuit(env: NodeJS.ProcessEnv) {
  Object.assign(sandbox.env, env);
  const rec = sandbox.spawnRec(['codex', '--scenario', 'shell'], { cols: 120, rows: 40 });
  await rec.expectScreen(PROMPT);
  await waitForRows(sandbox.dbPath, "select id from events where type = 'prompt'", (r) => r.length === 1);
  rec.sendKey('esc');
  await rec.expectScreen('✗ You canceled the request to run');
  rec.sendLine('/quit');
  return { exit: await rec.expectExit(), output: rec.output };
}

describe('REC_EXPORT_OTLP', () => {
  it("sends the run's rejection after the agent exits, leaving the exit status and the terminal alone", async () => {
    const receiver = await OtlpReceiver.start();
    try {
      const { exit, output } = await rejectAndQuit({ REC_EXPORT_OTLP: receiver.url });
      expect(exit.exitCode).toBe(0);
      expect(output).not.toMatch(/rec export|Sent \d+ event/);
      const records = await pollUntil(() => (receiver.records.length > 0 ? receiver.records : undefined), { what: 'the exported records', timeoutMs: 20_000 });
      expect(records!.map((r) => [r.attributes['rec.type'], r.attributes['rec.trigger'], r.attributes.source])).toEqual([['rejection', 'esc', 'user_abort']]);
    } finally {
      await receiver.stop();
    }
  });

  it('a failing export is one line in the debug log, never on the terminal', async () => {
    const log = join(sandbox.dir, 'debug.log');
    const { exit, output } = await rejectAndQuit({ REC_EXPORT_OTLP: 'http://127.0.0.1:1', REC_DEBUG: '1', REC_DEBUG_LOG: log, OTEL_EXPORTER_OTLP_TIMEOUT: '500' });
    expect(exit.exitCode).toBe(0);
    expect(output).not.toContain('rec export');
    const line = await pollUntil(() => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').find((l) => l.startsWith('rec export:')) : undefined), {
      what: 'the failure in the debug log',
      timeoutMs: 20_000,
    });
    expect(line).toMatch(/not acknowledged, even after retrying/);
  });
});

// Fail-open: a recorder part that fails disables itself only. The agent (fake-codex here) keeps
// working untouched, rec exits with the agent's code, says once on stderr what stopped working,
// and the run row records it. Failures are injected with REC_FAULT_INJECT.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecSandbox, REPO_ROOT, type RecSandbox } from '../../support/rec.js';
import { queryRows, waitForRows } from '../../support/sidecarRows.js';

const FAKES_BIN = join(REPO_ROOT, 'test', 'fakes', 'bin');
let sandbox: RecSandbox | undefined;
afterEach(() => sandbox?.dispose());

async function runWithFault(part: string) {
  sandbox = createRecSandbox({ PATH: `${FAKES_BIN}:${process.env.PATH}`, REC_FAULT_INJECT: part });
  sandbox.env.CODEX_HOME = join(sandbox.dir, 'codex-home');
  const rec = sandbox.spawnRec(['codex', '--scenario', 'shell'], { cols: 120, rows: 40 });
  await rec.expectScreen('Press enter to confirm or esc to cancel');
  if (part === 'recorder') {
    // The recorder fault fires on the first key the recorder sees. The recorder loads after the
    // agent has started, so wait until it has seen the prompt: a key sent earlier reaches the
    // agent unobserved, and the fault would never fire (this raced on a loaded CI machine).
    await waitForRows(sandbox.dbPath, "select id from events where type = 'prompt'", (r) => r.length === 1);
  }
  rec.send('y');
  await rec.expectScreen('MOCK FINAL');
  rec.sendLine('/quit');
  const exit = await rec.expectExit();
  return { rec, exit };
}

describe('fail-open', () => {
  it.each([
    ['recorder', /recorder: injected recorder fault/],
    ['screen', /screen: injected screen fault/],
    ['hooks', /hooks: injected hooks fault/],
  ])('a failing %s leaves the agent working and is reported once after it exits', async (part, note) => {
    const { rec, exit } = await runWithFault(part);
    expect(exit.exitCode).toBe(0);
    const notes = rec.output.match(/rec: recording was incomplete/g) ?? [];
    expect(notes).toHaveLength(1);
    expect(rec.output).toMatch(note);
    // The note comes after the agent's last output: never inside its screen.
    expect(rec.output.lastIndexOf('rec: recording was incomplete')).toBeGreaterThan(rec.output.lastIndexOf('MOCK FINAL'));
    const [run] = queryRows(sandbox!.dbPath, 'select exit_code, failed_parts from runs');
    expect(run!.exit_code).toBe(0);
    const failed = JSON.parse(String(run!.failed_parts)) as Array<{ part: string }>;
    expect(failed.map((f) => f.part)).toContain(part);
  });
});

// After the agent dies without cleaning up, rec leaves the user's terminal as the agent found it:
// everything rec wrote is fed to a real @xterm/headless (the "outer terminal"), whose state after
// rec's exit must be a fresh terminal's. Each mode is tested alone, so a missing restore names it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DONE, MODES, READY } from '../../fakes/fake-modes.mjs';
import { outerTerminalState, PRISTINE, type OuterTerminalState } from '../../support/outerTerminal.js';
import { createRecSandbox, REPO_ROOT, type RecSandbox } from '../../support/rec.js';

const FAKE = join(REPO_ROOT, 'test', 'fakes', 'fake-modes.mjs');

/** What each of the fake's modes looks like on the outer terminal while it is on. */
const ON: Record<keyof typeof MODES, Partial<OuterTerminalState>> = {
  alt: { screen: 'alternate' },
  mouse: { mouseTracking: 'any', mouseEncoding: 'SGR' },
  paste: { bracketedPaste: true },
  focus: { focusReports: true },
  kitty: { kittyMain: 1 },
  cursor: { cursorHidden: true },
  keypad: { applicationKeypad: true },
  cursorKeys: { applicationCursorKeys: true },
};

let sandbox: RecSandbox;
beforeEach(() => {
  sandbox = createRecSandbox();
});
afterEach(() => sandbox.dispose());

/** The outer terminal as the agent left it (up to its marker) and as rec left it (everything). */
async function statesOf(output: string): Promise<{ agentLeft: OuterTerminalState; recLeft: OuterTerminalState }> {
  const marker = output.indexOf(READY);
  expect(marker).toBeGreaterThan(0);
  return {
    agentLeft: await outerTerminalState(output.slice(0, marker + READY.length)),
    recLeft: await outerTerminalState(output),
  };
}

describe('a terminal left clean after the agent dies', () => {
  for (const mode of Object.keys(MODES) as Array<keyof typeof MODES>) {
    it(`undoes ${mode} when the agent turned it on and died by SIGKILL`, async () => {
      const p = sandbox.spawnRec(['--', process.execPath, FAKE, '--die', mode]);
      expect(await p.expectExit()).toEqual({ exitCode: 128 + 9, signal: undefined });
      const { agentLeft, recLeft } = await statesOf(p.output);
      expect(agentLeft).toMatchObject(ON[mode]); // the fake did turn it on
      expect(recLeft).toEqual(PRISTINE);
    });
  }

  it('undoes every mode at once, keyboard flags pushed on the alternate screen included', async () => {
    const p = sandbox.spawnRec(['--', process.execPath, FAKE, '--die', 'all']);
    expect((await p.expectExit()).exitCode).toBe(128 + 9);
    const { agentLeft, recLeft } = await statesOf(p.output);
    expect(agentLeft).toMatchObject({ screen: 'alternate', kittyAlternate: 1, cursorHidden: true, mouseTracking: 'any' });
    expect(recLeft).toEqual(PRISTINE);
  });

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`undoes every mode when rec is sent ${signal} and the agent dies of it`, async () => {
      const p = sandbox.spawnRec(['--', process.execPath, FAKE, '--wait', 'all']);
      await p.expect(/agent-ppid=(\d+)/);
      const recPid = Number(p.match![1]);
      await p.expect(READY);
      process.kill(recPid, signal);
      expect((await p.expectExit()).exitCode).toBe(128 + (signal === 'SIGTERM' ? 15 : 1));
      const { agentLeft, recLeft } = await statesOf(p.output);
      expect(agentLeft.screen).toBe('alternate');
      expect(recLeft).toEqual(PRISTINE);
    });
  }

  it('adds no byte after an agent that turned its modes off itself', async () => {
    const p = sandbox.spawnRec(['--', process.execPath, FAKE, 'all']);
    expect((await p.expectExit()).exitCode).toBe(0);
    expect(p.output.endsWith(DONE)).toBe(true);
    expect(await outerTerminalState(p.output)).toEqual(PRISTINE);
  });
});

describe('the last resort: rec itself crashes', () => {
  it('an uncaught exception still writes the restore, after the agent output already written', () => {
    const agent = '\x1b[?1049h\x1b[?25l\x1b[?1000h<agent>';
    const child = spawnSync(process.execPath, [join(import.meta.dirname, 'crashRestore.mjs'), agent], { encoding: 'latin1' });
    expect(child.status).not.toBe(0);
    expect(child.stderr).toContain('a bug in rec');
    expect(child.stdout).toBe(`${agent}\x1b[?1049l\x1b[?1000l\x1b[?25h`);
  });
});

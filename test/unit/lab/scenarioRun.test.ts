// playScenario, the doctor's frame around every agent's scenario: a real pty running a shell that
// plays the agent. Whatever the script does, everything is stopped, the rows are read and the world
// is removed, in that order; a failed step is the run's one-line error with the screen it left.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { playScenario, type ScenarioPlay } from '../../../src/lab/scenarioRun.js';
import { spawn, type Spawned } from '../../../src/lab/spawn.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-scenario-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A shell that draws a composer and waits for a line. */
function agent(): Spawned {
  return spawn('sh', ['-c', 'printf "composer>"; read line; printf "got %s" "$line"; sleep 30'], { cols: 80, rows: 10, timeoutMs: 10_000 });
}

function play(proc: Spawned, steps: string[], over: Partial<ScenarioPlay> = {}): ScenarioPlay {
  return {
    proc,
    ready: /composer>/,
    startTimeoutMs: 10_000,
    play: async () => {
      steps.push('play');
      proc.send('hello\r');
      await proc.expectScreen(/got hello/, 10_000);
    },
    quit: async () => void steps.push('quit'),
    dbPath: join(dir, 'none.db'),
    stopProcesses: async () => {
      steps.push('stop');
      proc.kill();
      await proc.expectExit(10_000);
    },
    cleanup: async () => void steps.push('cleanup'),
    ...over,
  };
}

describe('playScenario', () => {
  it('plays once the composer shows, quits, then stops, reads and cleans up', async () => {
    const steps: string[] = [];
    const proc = agent();
    const run = await playScenario(play(proc, steps));
    expect(steps).toEqual(['play', 'quit', 'stop', 'cleanup']);
    expect(run.error).toBeNull();
    expect(run.screen).toContain('got hello');
    expect(run.rows).toEqual([]); // rec never made its database here
  });

  it('a step that fails is the error, in one line, with the screen as it was; nothing is skipped after it', async () => {
    const steps: string[] = [];
    const proc = agent();
    const run = await playScenario(play(proc, steps, { play: () => Promise.reject(new Error('timeout waiting for the prompt\nmore detail')) }));
    expect(steps).toEqual(['stop', 'cleanup']);
    expect(run.error).toBe('timeout waiting for the prompt');
    expect(run.screen).toContain('composer>');
  });

  it('cleans up even when stopping the processes throws, and says so', async () => {
    const steps: string[] = [];
    const proc = agent();
    const stop = async () => {
      proc.kill();
      await proc.expectExit(10_000);
      throw new Error('a process outlived its stop');
    };
    await expect(playScenario(play(proc, steps, { stopProcesses: stop }))).rejects.toThrow('a process outlived its stop');
    expect(steps).toEqual(['play', 'quit', 'cleanup']);
  });
});

// The `rec demo` e2e suite, written once for every agent: the REAL pinned agent under `rec demo`,
// driven as a newcomer would (approve the harmless command, refuse the file edit and give a reason,
// approve the long command and interrupt it with Esc, quit), then what rec prints after the exit:
// the events, then merge's decisions and fates. rec demo builds its own isolated world and mock
// model: the test only gives it a TMPDIR of its own, so that whatever the demo leaves behind on a
// failure can be found and stopped by pid. Each agent's kit gives its row (`<agent>/demo.ts`, DEMO):
// the keys it plays, the keys rec records, the cells it expects; each agent's test file
// (test/e2e/<agent>/recDemo.test.ts) declares the suite over its own row, so that an agent's real
// CLI runs only where its folder of suites runs.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { descendantPids, killPids } from '../../src/lab/processTree.js';
import { spawn, type Spawned } from '../../src/lab/spawn.js';
import { tableAfter } from './demoReport.js';
import { noteNetworkIsolation } from './networkIsolation.js';
import { assertBuilt, REC_BIN } from './recBin.js';

/** The reason the newcomer gives for refusing the edit. */
export const DEMO_REASON = 'not in my repo';

/** One agent's row of the demo suite. */
export interface DemoCase {
  /** The agent under test, as the suite's title names it ("Claude Code 2.1.332"). */
  readonly agent: string;
  /** What follows `rec demo` before `--agent-bin` (none: the default agent). */
  readonly demoArgs: readonly string[];
  /** The binary given to `--agent-bin`. */
  readonly agentBin: string;
  /** The pty's height (its width is 80: the report must fit). */
  readonly rows: number;
  readonly testTimeoutMs: number;
  /** The wait for one screen change, where a step names none. */
  readonly stepTimeoutMs: number;
  /** From the moment the agent (and then rec's merge) has quit to rec's own exit. */
  readonly recExitTimeoutMs: number;
  /** Plays the newcomer's part on the agent's screens, up to and including its quit. */
  readonly drive: (r: Spawned, reason: string) => Promise<void>;
  /** How rec records the key that approved, and the one that refused. */
  readonly triggers: { readonly approve: string; readonly refuse: string };
  /** The cells naming the three calls in merge's table, cut to fit 80 columns (values or matchers). */
  readonly cells: { readonly command: unknown; readonly edit: unknown; readonly longCommand: unknown };
  /** The refusal's whole row in the events table, where it fits uncut. */
  readonly refusalEvent?: readonly string[];
  /** The name of the demo's world folder under TMPDIR, gone once it has cleaned up. */
  readonly worldPrefix: string;
  /** Processes the demo starts outside rec's own tree (Codex's daemon), to stop after a failure. */
  readonly leftoverPids?: (tmpDir: string) => number[];
}

/** `describe.each` over the given rows: one test each. */
export function describeDemo(cases: readonly DemoCase[]): void {
  // [title, row] pairs: `%s` prints a title whole (a `$agent` would be quoted).
  describe.each(cases.map((c) => [`rec demo on the real ${c.agent}`, c] as const))('%s', (_title, c) => {
    let rec: Spawned | undefined;
    let tmp: string | undefined;

    beforeAll(() => assertBuilt());

    afterEach(async () => {
      if (rec) {
        const leftovers = tmp ? (c.leftoverPids?.(tmp) ?? []) : [];
        await killPids([rec.pid, ...descendantPids([rec.pid, ...leftovers]), ...leftovers]);
        rec.dispose();
      }
      if (tmp) rmSync(tmp, { recursive: true, force: true });
      rec = undefined;
      tmp = undefined;
    });

    it(`records an approval, a refusal with its key and reason, an interruption, and prints them merged`, async () => {
      noteNetworkIsolation();
      tmp = mkdtempSync(join(tmpdir(), 'rec-demo-test-'));
      rec = spawn(process.execPath, [REC_BIN, 'demo', ...c.demoArgs, '--agent-bin', c.agentBin], {
        cols: 80,
        rows: c.rows,
        cwd: tmp,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, TMPDIR: tmp, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
        timeoutMs: c.stepTimeoutMs,
      });
      await c.drive(rec, DEMO_REASON);
      const exit = await rec.expectExit(c.recExitTimeoutMs);

      const out = rec.output.replace(/\r/g, '');
      const report = out.slice(out.lastIndexOf('rec recorded '));
      if (process.env.REC_E2E_DEBUG) console.log(report);
      expect(exit.exitCode).toBe(0);
      const { approve, refuse } = c.triggers;
      const { command, edit, longCommand } = c.cells;
      expect(tableAfter(report, 'The merged session')).toEqual([
        ['approval', approve, 'ran', command, '-'],
        ['rejection', refuse, 'rejected', edit, DEMO_REASON],
        ['approval', approve, 'interrupted', longCommand, '-'],
        ['interruption', 'esc', 'interrupted', longCommand, '-'],
      ]);
      const events = tableAfter(report, 'rec recorded ');
      expect(events.map((e) => e.slice(0, 3))).toEqual([
        ['prompt', 'command', '-'],
        ['approval', 'command', approve],
        ['prompt', 'edit', '-'],
        ['rejection', 'edit', refuse],
        ['prompt', 'command', '-'],
        ['approval', 'command', approve],
        ['interruption', 'tool', 'esc'],
      ]);
      expect(events[3]!.at(-1)).toBe(DEMO_REASON);
      if (c.refusalEvent) expect(events[3]).toEqual(c.refusalEvent);
      for (const l of report.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
      // The demo cleaned up after itself: its world (and whatever daemon the agent started) are gone.
      expect(readdirSync(tmp).filter((n) => n.startsWith(c.worldPrefix))).toEqual([]);
    }, c.testTimeoutMs);
  });
}

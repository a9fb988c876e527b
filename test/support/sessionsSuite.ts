// Which session file is a run's, on the REAL pinned agent (issue 19), written once for every agent:
// two `rec <agent>` side by side in one folder, given the same words and proposed the same command,
// each keep their own call (or none, and say why), never the other's; and a run that resumes an
// earlier session records the new turn's call in the file the agent now writes to, without recording
// the earlier turn again. Each agent's kit gives its row (`<agent>/sessions.ts`, SESSIONS): how a
// pane asks, approves, refuses and quits, how its session files read, how a session is resumed;
// each agent's test file (test/e2e/<agent>/rec<Agent>Sessions.test.ts) declares the suite over its
// own row, so that an agent's real CLI runs only where its folder of suites runs.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REC_BIN } from './recBin.js';
import { readAgentRecords, readEventRows, readRuns, type EventRow } from './sidecarRows.js';

/** A tool call as the agent's own session file tells it. */
export interface SessionCall {
  readonly id: string;
  /** The file says the call ran. */
  readonly ran: boolean;
  /** The file says the user refused it. */
  readonly refused: boolean;
}

/** One of the agent's session files, as it reads now (or last read, where the agent deleted it). */
export interface SessionFile {
  readonly file: string;
  readonly calls: readonly SessionCall[];
  /** Its non-empty lines. */
  readonly lines: number;
}

/** One `rec --db <name>.db <agent>` in a pty, in the world's one project folder. */
export interface SessionsPane {
  /** Waits for the agent's composer, sends the words, waits for the permission prompt of the call they ask for. */
  ask(words: string): Promise<void>;
  /** Approves the call once and waits for the agent's answer after it ran. */
  approve(): Promise<void>;
  /** Refuses the call with Esc and waits until the agent shows it refused. */
  refuse(): Promise<void>;
  /** Quits the agent as a user would; rec's exit code. */
  quit(): Promise<number>;
}

/** One mock model, one isolated agent home and project folder, any number of rec runs in it. */
export interface SessionsWorld {
  /** The folder the sidecars go in. */
  readonly baseDir: string;
  readonly workDir: string;
  readonly env: NodeJS.ProcessEnv;
  start(name: string, args?: readonly string[]): SessionsPane;
  /** The agent's session files, by path (with the last copy of any the agent deleted). */
  sessionFiles(): SessionFile[];
  dispose(): Promise<void>;
}

/** One way to name the session to go on with, after `rec <agent>`. */
export interface ResumeWay {
  readonly how: string;
  readonly args: (sessionId: string) => string[];
  /** The agent writes the new turn to a new file that starts with a copy of the earlier history. */
  readonly forks?: boolean;
}

/** One agent's row of the sessions suite. */
export interface SessionsCase {
  /** The suite's title: `rec codex on the real Codex 0.171.0: the right rollout, always`. */
  readonly title: string;
  readonly agentName: string;
  readonly testTimeoutMs: number;
  /** Throws where the suite cannot run (rec not built, the agent not installed). */
  readonly assertRunnable: () => void;
  readonly startWorld: () => Promise<SessionsWorld>;
  /** The same words in every pane, and the new turn's words after a resume. */
  readonly words: { readonly first: string; readonly again: string };
  readonly resumeWays: readonly ResumeWay[];
  /**
   * rec finds the run's file by scanning, and two panes with the same words may leave it unable to
   * tell which is whose: it then records the decision without a call id and says why
   * (`native.session: 'ambiguous'`), and knows no session file of the run.
   */
  readonly mayBeAmbiguous: boolean;
  /**
   * Resumed, the agent may first start a fresh session of its own, and delete it as it quits for
   * holding no turn (Gemini): such a file is no file the run wrote to.
   */
  readonly mayLeaveEmptySession?: boolean;
  /**
   * The new turn's records name the earlier call too (Gemini 0.61.0's do): only their line numbers
   * tell that none of the earlier turn's lines was copied.
   */
  readonly newLinesNameEarlierCalls?: boolean;
  /** The end of the session file's name, where rec chooses the session id (Claude Code's --session-id). */
  readonly sessionFileSuffix?: (sessionId: string) => string;
}

const dbOf = (w: SessionsWorld, name: string) => join(w.baseDir, `${name}.db`);

function recJson(w: SessionsWorld, name: string, args: readonly string[]): unknown {
  return JSON.parse(execFileSync(process.execPath, [REC_BIN, ...args, '--db', dbOf(w, name)], { cwd: w.workDir, env: w.env, encoding: 'utf8' })) as unknown;
}

const decisions = (rows: readonly EventRow[]) => rows.filter((r) => r.type === 'approval' || r.type === 'rejection');
const mergedRejections = (merged: unknown) => (merged as { rejections: Array<{ call_id: string }> }).rejections.map((r) => r.call_id);

/** `describe.each` over the given rows: the side-by-side test, and one resume test per way. */
/** The records of a JSONL session file: its non-empty lines. */
export function recordCount(text: string): number {
  return text.split('\n').filter((line) => line.trim() !== '').length;
}

/** What a sessions world started, stopped in order: the agents by pid, the rec runs, the mock model, then the world's folders. */
export async function stopWorld(w: {
  readonly env: { stopProcesses(pids: readonly number[]): Promise<void>; dispose(): Promise<void> };
  readonly recs: readonly { readonly pid: number; dispose(): void }[];
  readonly server: { close(): Promise<void> };
}): Promise<void> {
  await w.env.stopProcesses(w.recs.map((r) => r.pid));
  for (const r of w.recs) r.dispose();
  await w.server.close();
  await w.env.dispose();
}

export function describeSessions(cases: readonly SessionsCase[]): void {
  // [title, row] pairs: `%s` prints a title whole (a `$title` would be quoted and cut at 40 characters).
  describe.each(cases.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    let world: SessionsWorld | undefined;

    beforeAll(() => c.assertRunnable());

    afterEach(async () => {
      const w = world;
      world = undefined;
      await w?.dispose();
    });

    const startWorld = async () => (world = await c.startWorld());

    it("two runs side by side in one folder, same words, same command: each keeps its own call id (or none, and says why), never the other's", async () => {
      const w = await startWorld();
      const refuser = w.start('refuser');
      const approver = w.start('approver');
      await Promise.all([refuser.ask(c.words.first), approver.ask(c.words.first)]);
      await Promise.all([refuser.refuse(), approver.approve()]);
      expect(await refuser.quit()).toBe(0);
      expect(await approver.quit()).toBe(0);

      // The agent's own record of who did what: one file holds the refused call, the other the one that ran.
      const sessions = w.sessionFiles();
      expect(sessions).toHaveLength(2);
      const refused = sessions.find((s) => s.calls.some((call) => call.refused))!;
      const ran = sessions.find((s) => s !== refused)!;
      const refusedCall = refused.calls[0]!.id;
      const ranCall = ran.calls[0]!.id;
      expect(ran.calls[0]!.ran).toBe(true);

      const refuserRows = readEventRows(dbOf(w, 'refuser'));
      const approverRows = readEventRows(dbOf(w, 'approver'));
      // Its own call, or (where rec may not tell) none and the word why; never the other pane's.
      const own = (rows: readonly EventRow[], call: string) =>
        decisions(rows).every((r) => r.call_id === call || (c.mayBeAmbiguous && r.call_id === null && (r.native as { session?: string } | null)?.session === 'ambiguous'));
      expect(decisions(refuserRows).map((r) => r.type)).toEqual(['rejection']);
      expect(decisions(approverRows).map((r) => r.type)).toEqual(['approval']);
      expect(own(refuserRows, refusedCall)).toBe(true);
      expect(own(approverRows, ranCall)).toBe(true);
      for (const row of refuserRows) expect(row.call_id).not.toBe(ranCall);
      for (const row of approverRows) expect(row.call_id).not.toBe(refusedCall);

      const refuserRun = readRuns(dbOf(w, 'refuser'))[0]!;
      const approverRun = readRuns(dbOf(w, 'approver'))[0]!;
      const statsOf = (name: string, run: Record<string, unknown>) => recJson(w, name, ['stats', '--json', '--run', String(run.id)]);
      if (c.mayBeAmbiguous) {
        // Stats count one refusal and one approval, each in its own run.
        expect(statsOf('refuser', refuserRun)).toMatchObject({ rejections: { total: 1 }, approvals: 0 });
        expect(statsOf('approver', approverRun)).toMatchObject({ rejections: { total: 0 }, approvals: 1 });
        return;
      }
      expect(refuserRun.agent_session_file).toBe(refused.file);
      expect(approverRun.agent_session_file).toBe(ran.file);
      if (c.sessionFileSuffix) {
        // The session id rec gave each run is the one the agent used: the file is named after it.
        expect(refused.file.endsWith(c.sessionFileSuffix(String(refuserRun.agent_session_id)))).toBe(true);
        expect(ran.file.endsWith(c.sessionFileSuffix(String(approverRun.agent_session_id)))).toBe(true);
      }
      // Each sidecar copied only its own file's records.
      expect(new Set(readAgentRecords(dbOf(w, 'refuser')).map((r) => r.source_file))).toEqual(new Set([refused.file]));
      expect(new Set(readAgentRecords(dbOf(w, 'approver')).map((r) => r.source_file))).toEqual(new Set([ran.file]));

      // Merge and stats count one refusal and one approval, each in its own run.
      expect(mergedRejections(recJson(w, 'refuser', ['merge', '--run', String(refuserRun.id)]))).toEqual([refusedCall]);
      expect(mergedRejections(recJson(w, 'approver', ['merge', '--run', String(approverRun.id)]))).toEqual([]);
      expect(statsOf('refuser', refuserRun)).toMatchObject({ calls: 1, rejections: { total: 1 }, approvals: 0 });
      expect(statsOf('approver', approverRun)).toMatchObject({ calls: 1, rejections: { total: 0 }, approvals: 1 });
    }, c.testTimeoutMs);

    it.each(c.resumeWays)(`${c.agentName} $how: the refusal in the new turn carries the new call id, and the earlier turn is not recorded again`, async ({ args, forks }) => {
      const w = await startWorld();
      const first = w.start('first');
      await first.ask(c.words.first);
      await first.approve();
      expect(await first.quit()).toBe(0);
      const before = w.sessionFiles();
      expect(before).toHaveLength(1);
      const { file: earlierFile, lines: linesBefore } = before[0]!;
      const earlierCall = before[0]!.calls[0]!.id;
      const earlierSession = readRuns(dbOf(w, 'first'))[0]!.agent_session_id!;

      const resumed = w.start('resumed', args(earlierSession));
      await resumed.ask(c.words.again);
      await resumed.refuse();
      expect(await resumed.quit()).toBe(0);

      // The file the agent wrote the new turn to: the same one, or (a fork) a new one.
      const after = w.sessionFiles().filter((s) => !(c.mayLeaveEmptySession && s.calls.length === 0));
      expect(after.map((s) => s.file).sort()).toEqual(forks ? expect.arrayContaining([earlierFile]) : [earlierFile]);
      expect(after).toHaveLength(forks ? 2 : 1);
      const written = forks ? after.find((s) => s.file !== earlierFile)! : after[0]!;
      const newCall = written.calls.at(-1)!.id;
      expect(newCall).not.toBe(earlierCall);
      expect(written.calls.at(-1)!.refused).toBe(true);
      if (!forks) {
        expect(written.calls.map((call) => [call.id, call.ran, call.refused])).toEqual([
          [earlierCall, true, false],
          [newCall, false, true],
        ]);
      }

      const run = readRuns(dbOf(w, 'resumed'))[0]!;
      expect(run.agent_session_file).toBe(written.file);
      const rows = readEventRows(dbOf(w, 'resumed'));
      expect(decisions(rows).map((r) => [r.type, r.call_id])).toEqual([['rejection', newCall]]);
      expect(rows.every((r) => r.call_id !== earlierCall)).toBe(true);
      // Only what this run's agent wrote was copied: none of the earlier session's lines (nor a
      // fork's copy of its history).
      const records = readAgentRecords(dbOf(w, 'resumed'));
      expect(records.length).toBeGreaterThan(0);
      expect(records.every((r) => r.source_file === written.file)).toBe(true);
      if (!c.newLinesNameEarlierCalls) expect(records.some((r) => r.record.includes(earlierCall))).toBe(false);
      if (!forks) expect(Math.min(...records.map((r) => r.line_no))).toBeGreaterThan(linesBefore);

      // Merge shows both turns: the earlier call that ran (the fork's own history aside) and the new one refused.
      const merged = JSON.stringify(recJson(w, 'resumed', ['merge', '--run', String(run.id)]));
      expect(merged).toContain(newCall);
      if (!forks) expect(merged).toContain(earlierCall);
      expect(mergedRejections(JSON.parse(merged))).toEqual([newCall]);
    }, c.testTimeoutMs);
  });
}

// Which rollout is this run's when another Codex session in the same folder was given the same
// words and proposed the same command (issue 19): its twin fits the screen as well as ours does, so
// the run binds neither, unless Codex names its session as it exits.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentReplay } from '../../../support/codex/sampleReplay.js';
import { sampleSessionFile, screenFromText } from '../../../support/codex/samples.js';

const SAMPLE_ID = '01a20297-0b6a-77a0-a475-841e109138f8';
const TWIN_ID = '01a20297-0b6a-77a0-a475-99999999aaaa';

/** The same session under another id, with other call ids: what a second pane given the same words writes. */
function writeTwin(r: AgentReplay): { file: string; callId: string } {
  const file = join(dirname(r.rolloutFile), `rollout-2026-11-22T09-00-00-${TWIN_ID}.jsonl`);
  const lines = sampleSessionFile(r.sample);
  // Through its pending call: the other pane's prompt is open too.
  const through = lines.findIndex((l) => /"type": ?"function_call"/.test(l));
  const text = lines.slice(0, through + 1).join('\n').split(SAMPLE_ID).join(TWIN_ID).replace(/call_([0-9a-f]{4})/g, 'call_twin$1');
  writeFileSync(file, text + '\n');
  const callId = /"call_id": ?"(call_twin[0-9a-f]+)"/.exec(readFileSync(file, 'utf8'))![1]!;
  return { file, callId };
}

/** The rows Codex 0.169.0 prints as it exits (measured: "To reconnect, run:" then the id). */
function exitScreen(id: string) {
  return screenFromText(`Disconnected from this task. Any running work continues.\nTo reconnect, run:\n  codex resume ${id}\n`);
}

describe('codex 0.169.0: a twin session in the same folder', () => {
  it('both fit the screen equally: neither is bound, and the rejection keeps no call id and says the session was ambiguous', async () => {
    const r = new AgentReplay('shell-deny-esc', { announceRollout: false });
    const twin = writeTwin(r);
    r.appendThrough('function_call');
    r.show('1-prompt');
    r.press('esc');
    await r.exit();
    expect(r.sink.run.agent_session_file).toBeUndefined();
    expect(r.sink.records).toEqual([]);
    const rejection = r.sink.rows('rejection');
    expect(rejection.map((e) => e.call_id ?? null)).toEqual([null]);
    expect(rejection[0]!.native).toMatchObject({ session: 'ambiguous', session_candidates: 2 });
    expect(JSON.stringify(r.sink.rows())).not.toContain(twin.callId);
  });

  it('Codex names its session as it exits: the run binds that file, whatever else fits', async () => {
    const r = new AgentReplay('shell-deny-esc', { announceRollout: false });
    const twin = writeTwin(r);
    r.appendThrough('function_call');
    r.show('1-prompt');
    r.press('esc');
    r.screen.show(exitScreen(TWIN_ID));
    await r.exit();
    expect(r.sink.run.agent_session_file).toBe(twin.file);
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ call_id: twin.callId })]);
  });

  it('a twin that ran the call this run refused is not ours: this run binds its own file', async () => {
    const r = new AgentReplay('shell-deny-esc', { announceRollout: false });
    // The other pane was given the same words and command, and approved it: its call ran.
    const twin = join(dirname(r.rolloutFile), 'rollout-2026-11-22T09-00-00-01a20295-7c74-7f52-badc-4b2355db546f.jsonl');
    writeFileSync(twin, sampleSessionFile('shell-approve').join('\n') + '\n');
    r.appendThrough('function_call');
    r.show('1-prompt');
    r.press('esc');
    await r.exit();
    expect(r.sink.run.agent_session_file).toBe(r.rolloutFile);
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ call_id: r.callIds()[0] })]);
  });

  it('what the screen shows only now does not count yet: the twin, written first, is not taken for ours', () => {
    const r = new AgentReplay('shell-deny-esc', { announceRollout: false, witnessSettleMs: 60_000 });
    writeTwin(r);
    r.show('1-prompt');
    r.press('esc');
    expect(r.sink.run.agent_session_file).toBeUndefined();
    expect(r.sink.rows('rejection').map((e) => e.call_id ?? null)).toEqual([null]);
    r.recorder.dispose();
  });
});

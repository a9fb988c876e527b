// The guards that keep composer keys out of the record and take back keys Codex ignored, and the
// choice of this run's rollout among other sessions in the same folder (no hooks).
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseCodexScreen } from '../../../../src/agents/codex/screenParser.js';
import { LATEST_CODEX_STRINGS } from '../../../../src/agents/codex/strings/index.js';
import { AgentReplay } from '../../../support/codex/sampleReplay.js';
import { sampleSessionFile, sampleScreen, screenFromText } from '../../../support/codex/samples.js';

/** Short for tests only: the recorder checks a decision's key this long after it was pressed. */
const SETTLE_IN_TESTS_MS = 50;
/** How long a test waits for the recorder's settle check (condition-polled, far beyond SETTLE_IN_TESTS_MS). */
const WAIT_MS = 5_000;

describe('codex 0.169.0: composer keys never become decisions', () => {
  it('after Esc, a prompt still drawn (not yet repainted) takes no more keys: letters of the next message record nothing', async () => {
    const r = new AgentReplay('shell-deny-esc');
    r.appendThrough('function_call');
    r.show('1-prompt');
    r.press('esc');
    // Codex has not repainted yet: the same prompt is still the bottom pane in the model.
    r.show('1-prompt');
    r.press(...'do not write files in the repo'.split(''), 'enter');
    r.show('3-final');
    await r.exit();
    expect(r.sink.rows('approval', 'rejection').map((e) => [e.type, e.trigger])).toEqual([['rejection', 'esc']]);
    expect(r.sink.rows('prompt')).toHaveLength(1);
  });

  it('a prompt left above the composer (a resize remnant) is not an open prompt', () => {
    const prompt = sampleScreen('shell-deny-esc.1-prompt').lines;
    const footer = prompt.findIndex((l) => l.includes('Press enter to confirm'));
    const remnant = [...prompt.slice(0, footer + 1), '', '› do not write files in the repo', '', '  ? for shortcuts'];
    expect(parseCodexScreen(screenFromText(remnant.join('\n')), LATEST_CODEX_STRINGS).prompt).toBeUndefined();
    expect(parseCodexScreen(sampleScreen('shell-deny-esc.1-prompt'), LATEST_CODEX_STRINGS).prompt).toBeDefined();
  });

  it('the footer may share its row with the "⚠ 2 warnings" note', () => {
    const lines = [...sampleScreen('shell-deny-esc.1-prompt').lines];
    const footer = lines.findIndex((l) => l.includes('Press enter to confirm'));
    lines[footer] = lines[footer]!.padEnd(90) + '⚠ 2 warnings · f2 to view';
    expect(parseCodexScreen(screenFromText(lines.join('\n')), LATEST_CODEX_STRINGS).prompt?.kind).toBe('exec');
  });
});

describe('codex 0.169.0: a key Codex ignored is taken back', () => {
  it('y while the prompt stays open and unchanged is retracted; the next y is the decision', async () => {
    const r = new AgentReplay('shell-approve', { ignoredKeySettleMs: SETTLE_IN_TESTS_MS });
    r.appendThrough('function_call');
    r.show('1-prompt');
    r.press('y');
    expect(r.sink.rows('approval')).toHaveLength(1); // committed before the key went on
    await vi.waitFor(() => expect(r.sink.rows('approval')).toHaveLength(0), { timeout: WAIT_MS });
    r.press('y');
    r.show('2-final');
    await r.exit();
    expect(r.sink.rows('approval')).toEqual([expect.objectContaining({ trigger: 'letter', call_id: r.callIds()[0], ran: 'yes' })]);
    expect(r.sink.rows('prompt')).toHaveLength(1);
  });

  it('a decision whose prompt went away stays once the settle time has passed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    try {
      const r = new AgentReplay('shell-deny-esc', { ignoredKeySettleMs: SETTLE_IN_TESTS_MS });
      r.appendThrough('function_call');
      r.show('1-prompt');
      r.press('esc');
      r.show('2-after-esc');
      await vi.advanceTimersByTimeAsync(SETTLE_IN_TESTS_MS * 4);
      expect(r.sink.rows('rejection')).toHaveLength(1);
      vi.useRealTimers();
      await r.exit();
      expect(r.sink.rows('rejection')).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('codex 0.169.0: this run\'s rollout among other sessions in the same folder', () => {
  it('follows the rollout whose pending call the prompt shows, not an earlier session of the same cwd', async () => {
    const r = new AgentReplay('shell-deny-esc', { announceRollout: false });
    // Another Codex session in the same folder, started earlier (after this run did).
    const other = sampleSessionFile('parallel-approve-deny');
    const meta = JSON.parse(other[0]!) as { payload: { timestamp: string } };
    meta.payload.timestamp = '2026-11-22T09:00:30.000Z';
    writeFileSync(join(dirname(r.rolloutFile), 'rollout-2026-11-22T09-00-30-other.jsonl'), [JSON.stringify(meta), ...other.slice(1)].join('\n') + '\n');
    r.show('1-prompt'); // nothing of ours written yet: nothing followed
    r.press('down');
    expect(r.sink.records).toHaveLength(0);
    r.appendThrough('function_call');
    r.show('1-prompt');
    r.press('esc');
    await r.exit();
    expect(r.sink.run.agent_session_file).toBe(r.rolloutFile);
    expect(new Set(r.sink.records.map((x) => x.source_file))).toEqual(new Set([r.rolloutFile]));
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ call_id: r.callIds()[0] })]);
  });
});

// Plan mode's approval dialog ("Exit plan mode?", the ExitPlanMode call) as each verified Claude Code
// draws it, read from the frames recorded by scripts/record-claude-fixtures.mjs (recorded/plan-*).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptShowsCall } from '../../../../src/agents/claude/callMatcher.js';
import { parseClaudeScreen } from '../../../../src/agents/claude/screenParser.js';
import { claudeStringsFor } from '../../../../src/agents/claude/strings/index.js';
import { readScreenFrames } from '../../../support/castReplay.js';
import { RECORDED_BY_VERSION } from '../../../support/claude/recordedRun.js';
import { sampleScreen, screenFromText } from '../../../support/claude/samples.js';


const YES = 'Yes, and switch to default (ask each time) for this session';
const call = (toolName: string, toolInput: unknown) => ({ callId: 'toolu_1', toolName, toolInput, order: 0 });

for (const { version, recorded } of RECORDED_BY_VERSION) {
  describe(`claude ${version}, 120x40, plan mode, the plan approval dialog`, () => {
    const strings = claudeStringsFor(version);
    const frame = (name: string, label: string) => {
      const f = readScreenFrames(join(recorded, `${name}.screen.txt`)).find((x) => x.label === label);
      if (!f) throw new Error(`${name}: no frame ${label}`);
      return parseClaudeScreen(screenFromText(f.text, f.cols), strings);
    };

    it('reads the dialog: kind plan, its title and question, two options, 1 highlighted; no body, no feedback field, Tab does not amend', () => {
      const { prompt } = frame('plan-reject-esc', 'dialog');
      expect(prompt).toMatchObject({
        kind: 'plan',
        title: 'Exit plan mode?',
        body: 'plan',
        details: { question: 'Claude wants to exit plan mode' },
        highlighted: 1,
        amendable: false,
      });
      expect(prompt!.command).toBeUndefined();
      expect(prompt!.feedback).toBeUndefined();
      expect(prompt!.options.map((o) => [o.number, o.label])).toEqual([
        [1, YES],
        [2, 'No'],
      ]);
    });

    it('follows the highlight to No; the typing after Tab leaves the dialog as it was', () => {
      const no = frame('plan-reject-tab-enter', 'no-selected').prompt!;
      expect(no).toMatchObject({ highlighted: 2, amendable: false });
      expect(no.identity).toBe(frame('plan-reject-tab-enter', 'dialog').prompt!.identity);
    });

    it('a 60-step plan draws the same dialog (no plan on it, no other view)', () => {
      const long = frame('plan-long-reject-esc', 'dialog').prompt!;
      const short = frame('plan-reject-esc', 'dialog').prompt!;
      expect(long).toMatchObject({ kind: 'plan', title: 'Exit plan mode?', body: 'plan' });
      expect(long.options).toEqual(short.options);
    });

    it('once refused: no prompt, and `⎿  Rejected Claude\'s plan:` is a decision row', () => {
      const s = frame('plan-reject-digit', 'rejected');
      expect(s.prompt).toBeUndefined();
      expect(s.decisionRows).toBe(1);
      expect(frame('plan-reject-digit', 'dialog').decisionRows).toBe(0);
    });

    it('shows the ExitPlanMode call, and no other tool’s', () => {
      const { prompt } = frame('plan-reject-esc', 'dialog');
      expect(promptShowsCall(prompt!, call('ExitPlanMode', { plan: '1. a' }))).toBe(true);
      expect(promptShowsCall(prompt!, call('Bash', { command: 'ls' }))).toBe(false);
    });

    it('the permission prompts with a footer still take Tab (amendable), the plan dialog never', () => {
      expect(parseClaudeScreen(sampleScreen('bash-approve--screen-prompt'), strings).prompt!.amendable).toBe(true);
    });
  });
}

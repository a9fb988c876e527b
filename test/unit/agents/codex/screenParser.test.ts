import { describe, expect, it } from 'vitest';
import { parseCodexScreen } from '../../../../src/agents/codex/screenParser.js';
import { CODEX_0_169_0 } from '../../../../src/agents/codex/strings/v0_169_0.js';
import { sampleScreen } from '../../../support/codex/samples.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODEX_0_171_0 } from '../../../../src/agents/codex/strings/v0_171_0.js';
import type { ScreenSnapshot } from '../../../../src/core/screen.js';
import { RECORDED_BY_VERSION } from '../../../support/codex/recordedRun.js';

const RECORDED_0_171_0 = RECORDED_BY_VERSION.find((v) => v.version === '0.171.0')!.recorded;

const parse = (name: string) => parseCodexScreen(sampleScreen(name), CODEX_0_169_0);

describe('codex 0.169.0, 120x40, approval prompt screens', () => {
  it('reads the exec prompt: title, command, reason, options with hotkeys, highlighted row', () => {
    const { prompt } = parse('shell-approve.1-prompt');
    expect(prompt).toMatchObject({
      kind: 'exec',
      title: 'Would you like to run the following command?',
      command: 'echo hello > $BASE/work/approved.txt && cat $BASE/work/approved.txt',
      details: { reason: 'Write approved.txt in the workspace?', environment: 'local' },
      highlighted: 1,
    });
    expect(prompt!.options.map((o) => [o.number, o.label, o.key])).toEqual([
      [1, 'Yes, proceed (y)', 'y'],
      [2, "Yes, and don't ask again for commands that start with `echo hello > $BASE/work/approved.txt && cat /$BASE/work/approved.txt` (p)", 'p'],
      [3, 'No, and tell Codex what to do differently (esc)', 'esc'],
    ]);
  });

  it('moves the highlight with the › marker', () => {
    expect(parse('shell-deny-option3.2-selected3').prompt!.highlighted).toBe(3);
  });

  it('reads the edits prompt with its destination', () => {
    expect(parse('patch-approve.1-prompt').prompt).toMatchObject({
      kind: 'patch',
      title: 'Would you like to make the following edits?',
      details: { description: 'Apply proposed file edits', destination: '$BASE/work/patched.txt' },
    });
  });

  it('re-joins a command wrapped at 70 columns, and keeps the prompt identity of the 120-column prompt', () => {
    const wide = parse('resize-redraw.1-prompt').prompt!;
    const narrow = parse('resize-redraw.3-after-resize-70x30').prompt!;
    expect(narrow.command).toBe('echo hello > $BASE/work/approved.txt && cat $BASE/work/approved.txt');
    expect(narrow.identity).toBe(wide.identity);
  });

  it('tells prompts of a parallel batch apart', () => {
    expect(parse('parallel-approve-deny.1-prompt').prompt!.identity).not.toBe(
      parse('parallel-approve-deny.3-second').prompt!.identity,
    );
  });

  it('sees no prompt once it is answered, and reads the decision history rows', () => {
    const screen = parse('parallel-approve-deny.4-after');
    expect(screen.prompt).toBeUndefined();
    expect(screen.approvedRows).toEqual(['✔ You approved codex to run echo one > $BASE/work/p1.txt this time']);
    expect(screen.canceledRows).toEqual(['✗ You canceled the request to run echo two > $BASE/work/p2.txt']);
    expect(screen.interruptedRows).toBe(1);
  });
});

describe('codex 0.169.0, 120x40, running turn screens', () => {
  it('reads the working status of a running command', () => {
    const screen = parse('sleep-esc-while-running.2-running');
    expect(screen.working).toBe(true);
    expect(screen.prompt).toBeUndefined();
  });

  it('reads the "Task is still running" menu and its highlighted option', () => {
    const { taskMenu } = parse('sleep-ctrlc-exit.2-menu-option3');
    expect(taskMenu!.options.map((o) => [o.shortLabel, o.action])).toEqual([
      ['Cancel task', 'cancel'],
      ['Run in background', 'background'],
      ['Exit', 'exit'],
    ]);
    expect(taskMenu!.highlighted).toBe(3);
  });

  it('reads a streamed answer above the composer', () => {
    expect(parse('text-esc-while-streaming.2-streaming').answerText).toBe(
      'word0 word1 word2 word3 word4 word5 word6 word7 word8 word9',
    );
  });

  it('reads a streamed answer above the task menu, wrapped rows kept', () => {
    expect(parse('text-ctrlc-while-streaming.4-final').answerText).toBe(
      'word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 word14 word15 word16 word17\n' +
        'word18 word19 word20 word21 word22 word23 word24',
    );
  });

  it('reads no answer on a screen with a tool cell only', () => {
    expect(parse('sleep-esc-while-running.2-running').answerText).toBeUndefined();
  });

  it('sees the hooks trust screen and the disconnect line', () => {
    expect(parse('hooks-trust-prompt').hookTrust).toBe(true);
    expect(parse('text-ctrlc-run-in-background.3-after-exit').disconnected).toBe(true);
  });
});

describe('codex 0.171.0, 120x40, the MCP tool form (recorded/mcp-keys.screen.txt)', () => {
  const frame = (label: string): string => {
    const text = readFileSync(join(RECORDED_0_171_0, 'mcp-keys.screen.txt'), 'utf8');
    const m = new RegExp(`^# ${label} t=[^\\n]*\\n─+\\n([\\s\\S]*?)\\n(?=─+\\n# |$)`, 'm').exec(text);
    if (!m) throw new Error(`no frame ${label}`);
    return m[1]!;
  };
  const parse171 = (label: string) => parseCodexScreen({ lines: frame(label).split('\n') } as unknown as ScreenSnapshot, CODEX_0_171_0);

  it('reads its question as kind mcp, the server and tool, the argument rows and the short option labels', () => {
    const { prompt } = parse171('form-1');
    expect(prompt).toMatchObject({
      kind: 'mcp',
      title: 'Allow the marker MCP server to run tool "touch_marker"?',
      details: { server: 'marker', tool: 'touch_marker' },
      mcpArgs: { name: 'mcp-marker-1.txt' },
      highlighted: 1,
    });
    expect(prompt!.options.map((o) => [o.number, o.label])).toEqual([
      [1, 'Allow'],
      [2, 'Allow for this session'],
      [3, 'Always allow'],
      [4, 'Cancel'],
    ]);
  });

  it('tells the next call’s form from the last by its arguments; a decided form is gone', () => {
    expect(parse171('form-2').prompt!.identity).not.toBe(parse171('form-1').prompt!.identity);
    expect(parse171('decided-1').prompt).toBeUndefined();
  });

  it('is not read with the 0.169.0 texts, which do not know it', () => {
    expect(parseCodexScreen({ lines: frame('form-1').split('\n') } as unknown as ScreenSnapshot, CODEX_0_169_0).prompt).toBeUndefined();
  });
});

// The mode scanner on byte sequences: what it restores, that it restores nothing for an agent that
// cleaned up, and that a sequence cut anywhere by a chunk boundary reads the same as whole. The
// restore is checked on a real @xterm/headless: agent bytes + restore must leave a fresh terminal.
import { describe, expect, it } from 'vitest';
import { TerminalModes } from '../../../src/session/terminalModes.js';
import { MODES } from '../../fakes/fake-modes.mjs';
import { outerTerminalState, PRISTINE } from '../../support/outerTerminal.js';

function restoreAfter(...chunks: string[]): string {
  const modes = new TerminalModes();
  for (const chunk of chunks) modes.scan(Buffer.from(chunk, 'latin1'));
  return modes.restoreSequence();
}

const ALL_ON = Object.values(MODES).map(([on]) => on).join('');
const ALL_OFF = Object.values(MODES).map(([, off]) => off).reverse().join('');

describe('TerminalModes', () => {
  it('restores nothing for plain output, colours and cursor moves', () => {
    expect(restoreAfter('hello \x1b[31mred\x1b[0m \x1b[38;5;200mx\x1b[2;5H\x1b[2K\x1b]0;title\x07\x1b(B')).toBe('');
  });

  it('restores nothing for an agent that turned every mode off again', () => {
    expect(restoreAfter(ALL_ON, 'drawing…', ALL_OFF)).toBe('');
  });

  for (const [name, [on]] of Object.entries(MODES)) {
    it(`puts a real terminal back after ${name} is left on`, async () => {
      const restore = restoreAfter('x', on, 'y');
      expect(restore).not.toBe('');
      expect(await outerTerminalState(on + restore)).toEqual(PRISTINE);
    });
  }

  it('leaves the alternate screen after popping the keyboard flags pushed on it', async () => {
    const agent = '\x1b[>1u\x1b[?1049h\x1b[>3u\x1b[>5u\x1b[?25l';
    const restore = restoreAfter(agent);
    expect(restore).toBe('\x1b[<2u\x1b[?1049l\x1b[<1u\x1b[?25h');
    expect(await outerTerminalState(agent + restore)).toEqual(PRISTINE);
  });

  it('leaves the alternate screen with the mode that entered it', () => {
    expect(restoreAfter('\x1b[?47h')).toBe('\x1b[?47l');
    expect(restoreAfter('\x1b[?1047h')).toBe('\x1b[?1047l');
    expect(restoreAfter('\x1b[?1049h', '\x1b[?47l')).toBe('');
  });

  it('reads several modes in one sequence', () => {
    expect(restoreAfter('\x1b[?1000;1006;2004h')).toBe('\x1b[?1000l\x1b[?1006l\x1b[?2004l');
    expect(restoreAfter('\x1b[?1000;1006;2004h\x1b[?1006;1000l')).toBe('\x1b[?2004l');
  });

  it('turns auto-wrap back on and synchronized output off, first', () => {
    expect(restoreAfter('\x1b[?7l\x1b[?2026h\x1b[?1003h')).toBe('\x1b[?2026l\x1b[?1003l\x1b[?7h');
  });

  it('counts kitty pops, with a count and past the bottom of the stack', () => {
    expect(restoreAfter('\x1b[>1u\x1b[>3u\x1b[>7u\x1b[<2u')).toBe('\x1b[<1u');
    expect(restoreAfter('\x1b[>1u\x1b[<5u')).toBe('');
    expect(restoreAfter('\x1b[=5;1u')).toBe('\x1b[=0;1u');
    expect(restoreAfter('\x1b[=5;1u\x1b[=4;3u\x1b[=1;3u')).toBe('');
    expect(restoreAfter('\x1b[?u')).toBe(''); // a query changes nothing
  });

  it('puts modifyOtherKeys back to the terminal\'s setting when the agent left it on', () => {
    expect(restoreAfter('\x1b[>4;2m')).toBe('\x1b[>4m');
    expect(restoreAfter('\x1b[>4;2m\x1b[>4;0m')).toBe('');
    expect(restoreAfter('\x1b[>4;1m\x1b[>4n')).toBe('');
    expect(restoreAfter('\x1b[>4;0m\x1b[>1u\x1b[>4;2m', '\x1bc')).toBe('');
    expect(restoreAfter('\x1b[>1;2m')).toBe(''); // another resource: not tracked
  });

  it('follows XTSAVE and XTRESTORE of private modes', () => {
    expect(restoreAfter('\x1b[?1000s\x1b[?1000h\x1b[?1000r')).toBe('');
    expect(restoreAfter('\x1b[?1000h\x1b[?1000s\x1b[?1000l\x1b[?1000r')).toBe('\x1b[?1000l');
  });

  it('forgets everything at a full reset (RIS), and the cursor and keys at a soft reset (DECSTR)', () => {
    expect(restoreAfter(ALL_ON, '\x1bc')).toBe('');
    expect(restoreAfter('\x1b[?25l\x1b[?1h\x1b=\x1b[?2004h\x1b[!p')).toBe('\x1b[?2004l');
  });

  it('takes application keypad from ESC = and from DECNKM as one state', () => {
    expect(restoreAfter('\x1b[?66h')).toBe('\x1b>');
    expect(restoreAfter('\x1b=', '\x1b[?66l')).toBe('');
  });

  it('ignores sequences that only look alike: DECRQM queries, DECSTBM, SGR with many parameters', () => {
    expect(restoreAfter('\x1b[?1049$p\x1b[5;20r\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20m')).toBe('');
  });

  it('reads a sequence cut by a chunk boundary at any byte, as whole', () => {
    const stream = `a\x1b[31mb${ALL_ON}c\x1b[?2004l\x1b[<u\x1b[=3;1ud\x1b[?7lé`;
    const whole = restoreAfter(stream);
    expect(whole).toContain('\x1b[?1049l');
    for (let cut = 1; cut < stream.length; cut++) {
      expect(restoreAfter(stream.slice(0, cut), stream.slice(cut)), `cut at ${cut}`).toBe(whole);
    }
    // And fed one byte at a time.
    expect(restoreAfter(...stream.split(''))).toBe(whole);
  });

  it('gives up on a sequence longer than any it tracks instead of holding bytes', () => {
    const modes = new TerminalModes();
    modes.scan(Buffer.from('\x1b[?' + '1;'.repeat(100)));
    modes.scan(Buffer.from('1049h'));
    expect(modes.restoreSequence()).toBe('');
    modes.scan(Buffer.from('\x1b[?25l'));
    expect(modes.restoreSequence()).toBe('\x1b[?25h');
  });
});

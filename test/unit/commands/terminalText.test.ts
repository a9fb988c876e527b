import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TerminalSafeStream, escapeControls, escapeControlsKeepLines } from '../../../src/commands/terminalText.js';
import { HOSTILE, HOSTILE_STRINGS, findUnsafe } from '../../support/hostileStrings.js';

describe('escapeControls', () => {
  it.each(Object.entries(HOSTILE_STRINGS))('%s: nothing unsafe is left, and what was there is shown', (_name, text) => {
    const shown = escapeControls(text);
    expect(findUnsafe(shown)).toBeUndefined();
    // Visible, not dropped: every unsafe character became an escape of its own.
    expect(shown.length).toBeGreaterThan(text.length);
  });

  it('spells the escapes as a programmer would read them', () => {
    expect(escapeControls('\x1b]0;pwned\x07')).toBe('\\x1b]0;pwned\\x07');
    expect(escapeControls('a\tb\r\nc\u009b\u202e')).toBe('a\\tb\\r\\nc\\x9b\\u202e');
    expect(escapeControls('plain text, ünïcödé, 漢字, 👍')).toBe('plain text, ünïcödé, 漢字, 👍');
  });

  it('escapeControlsKeepLines keeps newlines only', () => {
    expect(escapeControlsKeepLines('a\x1b[2J\nb\r\n')).toBe('a\\x1b[2J\nb\\r\n');
  });
});

describe('TerminalSafeStream', () => {
  it('escapes what is written, even a character split across two writes', async () => {
    const target = new PassThrough();
    let got = '';
    target.on('data', (d: Buffer) => (got += d.toString('utf8')));
    const safe = new TerminalSafeStream(target);
    const bytes = Buffer.from(`line one ${HOSTILE}\nline two \u009b\n`, 'utf8');
    const cut = bytes.indexOf(0xc2) + 1; // inside the two-byte C1 CSI
    safe.write(bytes.subarray(0, cut));
    safe.write(bytes.subarray(cut));
    await new Promise<void>((resolve) => safe.end(resolve));
    expect(findUnsafe(got)).toBeUndefined();
    expect(got).toMatch(/^line one .*\nline two \\x9b\n$/);
  });
});

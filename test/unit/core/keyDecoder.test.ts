import { describe, expect, it } from 'vitest';
import { KeyDecoder, LONE_ESC_TIMEOUT_MS } from '../../../src/core/keyDecoder.js';
import type { KeyEvent } from '../../../src/core/keys.js';

const b = (s: string): Buffer => Buffer.from(s, 'latin1');
const u = (s: string): Buffer => Buffer.from(s, 'utf8');

/** A short, readable form of an event (bytes checked separately). */
function show(e: KeyEvent): string {
  const alt = 'alt' in e && e.alt ? 'alt+' : '';
  const mods =
    'modifiers' in e && e.modifiers
      ? `[${(['shift', 'alt', 'ctrl', 'meta'] as const).filter((m) => e.modifiers?.[m]).join(',')}]`
      : '';
  switch (e.type) {
    case 'key':
      return `${alt}${e.name}${mods}`;
    case 'char':
      return `${alt}'${e.char}'${mods}`;
    case 'paste':
      return `paste(${JSON.stringify(e.text)})`;
    case 'unknown':
      return `unknown(${JSON.stringify(e.bytes.toString('latin1'))})`;
  }
}

/** Feeds the chunks in order, then flushes; returns events shown, and checks the bytes add up. */
function decode(...chunks: Buffer[]): string[] {
  const d = new KeyDecoder();
  const events = [...chunks.flatMap((c) => d.feed(c)), ...d.flush()];
  expect(Buffer.concat(events.map((e) => e.bytes))).toEqual(Buffer.concat(chunks));
  expect(d.pending).toBe(false);
  return events.map(show);
}

/** Feeds without flushing. */
function feedOnly(d: KeyDecoder, s: Buffer): string[] {
  return d.feed(s).map(show);
}

describe('KeyDecoder', () => {
  it('LONE_ESC_TIMEOUT_MS is a short positive bound', () => {
    expect(LONE_ESC_TIMEOUT_MS).toBeGreaterThan(0);
    expect(LONE_ESC_TIMEOUT_MS).toBeLessThanOrEqual(100);
  });

  describe('Esc', () => {
    it('a lone ESC stays pending until flush, then is the esc key', () => {
      const d = new KeyDecoder();
      expect(feedOnly(d, b('\x1b'))).toEqual([]);
      expect(d.pending).toBe(true);
      expect(d.flush().map(show)).toEqual(['esc']);
      expect(d.pending).toBe(false);
    });

    it('ESC followed by more bytes in a later read joins into the sequence', () => {
      const d = new KeyDecoder();
      expect(feedOnly(d, b('\x1b'))).toEqual([]);
      expect(feedOnly(d, b('[A'))).toEqual(['up']);
      expect(d.pending).toBe(false);
    });

    it('ESC ESC is two esc keys', () => {
      expect(decode(b('\x1b\x1b'))).toEqual(['esc', 'esc']);
      const d = new KeyDecoder();
      expect(feedOnly(d, b('\x1b\x1b'))).toEqual(['esc']);
      expect(d.flush().map(show)).toEqual(['esc']);
    });

    it('ESC before an arrow sequence is esc then the arrow', () => {
      expect(decode(b('\x1b\x1b[B'))).toEqual(['esc', 'down']);
    });

    it('kitty keyboard protocol Esc (CSI 27u) needs no timeout', () => {
      const d = new KeyDecoder();
      expect(feedOnly(d, b('\x1b[27u'))).toEqual(['esc']);
      expect(d.pending).toBe(false);
    });

    it('flush resolves ESC plus one character as Alt+character', () => {
      expect(decode(b('\x1b['))).toEqual(["alt+'['"]);
      expect(decode(b('\x1bO'))).toEqual(["alt+'O'"]);
    });

    it('flush resolves a longer incomplete sequence as unknown', () => {
      expect(decode(b('\x1b[1;5'))).toEqual(['unknown("\\u001b[1;5")']);
    });
  });

  describe('cursor and editing keys', () => {
    it.each([
      ['\x1b[A', 'up'], ['\x1b[B', 'down'], ['\x1b[C', 'right'], ['\x1b[D', 'left'],
      ['\x1bOA', 'up'], ['\x1bOB', 'down'], ['\x1bOC', 'right'], ['\x1bOD', 'left'],
      ['\x1b[H', 'home'], ['\x1b[F', 'end'], ['\x1bOH', 'home'], ['\x1bOF', 'end'],
      ['\x1b[1~', 'home'], ['\x1b[4~', 'end'], ['\x1b[7~', 'home'], ['\x1b[8~', 'end'],
      ['\x1b[2~', 'insert'], ['\x1b[3~', 'delete'], ['\x1b[5~', 'page-up'], ['\x1b[6~', 'page-down'],
    ])('%j is %s', (seq, name) => {
      expect(decode(b(seq))).toEqual([name]);
    });

    it.each([
      ['\x1bOP', 'f1'], ['\x1bOQ', 'f2'], ['\x1bOR', 'f3'], ['\x1bOS', 'f4'],
      ['\x1b[11~', 'f1'], ['\x1b[12~', 'f2'], ['\x1b[13~', 'f3'], ['\x1b[14~', 'f4'],
      ['\x1b[15~', 'f5'], ['\x1b[17~', 'f6'], ['\x1b[18~', 'f7'], ['\x1b[19~', 'f8'],
      ['\x1b[20~', 'f9'], ['\x1b[21~', 'f10'], ['\x1b[23~', 'f11'], ['\x1b[24~', 'f12'],
      ['\x1b[[A', 'f1'], ['\x1b[[E', 'f5'],
    ])('function key %j is %s', (seq, name) => {
      expect(decode(b(seq))).toEqual([name]);
    });

    it('modified forms map to the named key with modifiers', () => {
      expect(decode(b('\x1b[1;5A'))).toEqual(['up[ctrl]']);
      expect(decode(b('\x1b[1;2D'))).toEqual(['left[shift]']);
      expect(decode(b('\x1b[1;3C'))).toEqual(['alt+right[alt]']);
      expect(decode(b('\x1b[3;5~'))).toEqual(['delete[ctrl]']);
      expect(decode(b('\x1b[15;2~'))).toEqual(['f5[shift]']);
      expect(decode(b('\x1b[1;2P'))).toEqual(['f1[shift]']);
      expect(decode(b('\x1b[1;6H'))).toEqual(['home[shift,ctrl]']);
    });

    it('Shift+Tab (CSI Z)', () => {
      expect(decode(b('\x1b[Z'))).toEqual(['shift-tab']);
    });

    it('every sequence decodes the same when split at any byte across two feeds', () => {
      const sequences = ['\x1b[A', '\x1bOB', '\x1b[1;5A', '\x1b[15~', '\x1b[Z', '\x1b[99;5u', '\x1b[27u', '\x1b[[B'];
      for (const seq of sequences) {
        const whole = decode(b(seq));
        for (let cut = 1; cut < seq.length; cut++) {
          const d = new KeyDecoder();
          const first = d.feed(b(seq.slice(0, cut)));
          expect(first, `${JSON.stringify(seq)} cut at ${cut}`).toEqual([]);
          expect(d.pending).toBe(true);
          expect(d.feed(b(seq.slice(cut))).map(show)).toEqual(whole);
        }
      }
    });
  });

  describe('control keys', () => {
    it.each([
      ['\x03', 'ctrl-c'], ['\x04', 'ctrl-d'], ['\x1a', 'ctrl-z'], ['\x1c', 'ctrl-backslash'],
      ['\x01', 'ctrl-a'], ['\x05', 'ctrl-e'], ['\x12', 'ctrl-r'], ['\x00', 'ctrl-space'],
      ['\r', 'enter'], ['\n', 'enter'], ['\t', 'tab'], ['\x7f', 'backspace'], ['\x08', 'backspace'],
    ])('%j is %s', (seq, name) => {
      expect(decode(b(seq))).toEqual([name]);
    });

    it('control keys never wait for more bytes', () => {
      const d = new KeyDecoder();
      expect(feedOnly(d, b('\x03'))).toEqual(['ctrl-c']);
      expect(d.pending).toBe(false);
    });
  });

  describe('text', () => {
    it('digits, letters and punctuation are chars, one per code point', () => {
      expect(decode(b('1a Z.'))).toEqual(["'1'", "'a'", "' '", "'Z'", "'.'"]);
    });

    it('multibyte UTF-8 is one char per code point', () => {
      expect(decode(u('é中🙂'))).toEqual(["'é'", "'中'", "'🙂'"]);
    });

    it('a code point split across feeds is held until complete', () => {
      const bytes = u('🙂');
      for (let cut = 1; cut < bytes.length; cut++) {
        const d = new KeyDecoder();
        expect(d.feed(bytes.subarray(0, cut))).toEqual([]);
        expect(d.pending).toBe(true);
        expect(d.feed(bytes.subarray(cut)).map(show)).toEqual(["'🙂'"]);
      }
    });

    it('invalid UTF-8 is unknown, not text', () => {
      expect(decode(Buffer.from([0xff, 0x41]))).toEqual(['unknown("ÿ")', "'A'"]);
      expect(decode(Buffer.from([0xe4, 0x41]))).toEqual(['unknown("ä")', "'A'"]);
      expect(decode(Buffer.from([0xc0, 0x80]))).toEqual(['unknown("À")', `unknown(${JSON.stringify('\x80')})`]);
    });

    it('a split code point left at flush is unknown', () => {
      expect(decode(Buffer.from([0xe4, 0xb8]))).toEqual(['unknown("ä¸")']);
    });
  });

  describe('Alt+key', () => {
    it('ESC + character is Alt+character', () => {
      expect(decode(b('\x1bx'))).toEqual(["alt+'x'"]);
      expect(decode(b('\x1b1'))).toEqual(["alt+'1'"]);
      expect(decode(u('\x1bé'))).toEqual(["alt+'é'"]);
    });

    it('ESC + control is Alt+that key', () => {
      expect(decode(b('\x1b\x7f'))).toEqual(['alt+backspace']);
      expect(decode(b('\x1b\r'))).toEqual(['alt+enter']);
    });

    it('Alt+character split after ESC joins when the character arrives before flush', () => {
      const d = new KeyDecoder();
      expect(feedOnly(d, b('\x1b'))).toEqual([]);
      expect(feedOnly(d, b('b'))).toEqual(["alt+'b'"]);
    });
  });

  describe('bracketed paste', () => {
    it('is one paste event with the text between the markers', () => {
      expect(decode(u('\x1b[200~hello\r\x1b[Aworld é\x1b[201~'))).toEqual(['paste("hello\\r\\u001b[Aworld é")']);
    });

    it('keys around a paste decode on their own', () => {
      expect(decode(b('a\x1b[200~x\x1b[201~\x03'))).toEqual(["'a'", 'paste("x")', 'ctrl-c']);
    });

    it('a paste split across many feeds, at every position, is still one event', () => {
      const input = u('\x1b[200~line 1\rline 2 ✓\x1b\x1b[201~q');
      for (let cut1 = 1; cut1 < input.length; cut1++) {
        for (const cut2 of [cut1 + 1, cut1 + 3, input.length - 1]) {
          if (cut2 <= cut1 || cut2 >= input.length) continue;
          const events = decode(input.subarray(0, cut1), input.subarray(cut1, cut2), input.subarray(cut2));
          expect(events, `cuts ${cut1},${cut2}`).toEqual(['paste("line 1\\rline 2 ✓\\u001b")', "'q'"]);
        }
      }
    });

    it('a paste fed one byte at a time is one event', () => {
      const input = u('\x1b[200~abc\x1b[201~');
      const d = new KeyDecoder();
      const events = [...input].flatMap((byte) => d.feed(Buffer.from([byte])));
      expect(events.map(show)).toEqual(['paste("abc")']);
    });

    it('an open paste is pending; flush delivers it so far and the paste continues', () => {
      const d = new KeyDecoder();
      expect(feedOnly(d, b('\x1b[200~abc'))).toEqual([]);
      expect(d.pending).toBe(true);
      expect(d.flush().map(show)).toEqual(['paste("abc")']);
      expect(d.pending).toBe(false);
      // The rest is still paste content, not keys: an Enter inside it must not look like a key.
      expect(feedOnly(d, b('\rdef\x1b[201~\r'))).toEqual(['paste("\\rdef")', 'enter']);
    });

    it('two pastes in one read are two events', () => {
      expect(decode(b('\x1b[200~a\x1b[201~\x1b[200~b\x1b[201~'))).toEqual(['paste("a")', 'paste("b")']);
    });
  });

  describe('kitty keyboard protocol and modifyOtherKeys', () => {
    it.each([
      ['\x1b[27u', 'esc'],
      ['\x1b[13u', 'enter'],
      ['\x1b[9u', 'tab'],
      ['\x1b[9;2u', 'shift-tab[shift]'],
      ['\x1b[127u', 'backspace'],
      ['\x1b[99;5u', 'ctrl-c[ctrl]'],
      ['\x1b[100;5u', 'ctrl-d[ctrl]'],
      ['\x1b[122;5u', 'ctrl-z[ctrl]'],
      ['\x1b[92;5u', 'ctrl-backslash[ctrl]'],
      ['\x1b[97;5u', 'ctrl-a[ctrl]'],
      ['\x1b[99;6u', 'ctrl-c[shift,ctrl]'],
      ['\x1b[97u', "'a'"],
      ['\x1b[97;2u', "'A'[shift]"],
      ['\x1b[49;2:1;33u', "'!'[shift]"],
      ['\x1b[97;3u', "alt+'a'[alt]"],
      ['\x1b[57414u', 'enter'],
      ['\x1b[57400u', "'1'"],
      ['\x1b[27;5;99~', 'ctrl-c[ctrl]'],
      ['\x1b[27;1;13~', 'enter'],
    ])('%j is %s', (seq, shown) => {
      expect(decode(b(seq))).toEqual([shown]);
    });

    it('a key release (event type 3) is not a key press', () => {
      expect(decode(b('\x1b[99;5:1u\x1b[99;5:3u'))).toEqual(['ctrl-c[ctrl]', 'unknown("\\u001b[99;5:3u")']);
    });

    it('lone modifier keys (Private Use Area codes) are unknown', () => {
      expect(decode(b('\x1b[57441;2u'))).toEqual(['unknown("\\u001b[57441;2u")']);
    });
  });

  describe('terminal reports are not keys', () => {
    it.each([
      ['focus in', '\x1b[I'],
      ['focus out', '\x1b[O'],
      ['SGR mouse press', '\x1b[<0;10;5M'],
      ['SGR mouse release', '\x1b[<0;10;5m'],
      ['X10 mouse', '\x1b[M !!'],
      ['cursor position report', '\x1b[12;40R'],
      ['primary device attributes', '\x1b[?62;22c'],
      ['kitty flags reply', '\x1b[?1u'],
      ['OSC 11 colour reply (BEL)', '\x1b]11;rgb:0000/0000/0000\x07'],
      ['OSC 11 colour reply (ST)', '\x1b]11;rgb:ffff/ffff/ffff\x1b\\'],
      ['DCS reply', '\x1bP1$r0m\x1b\\'],
    ])('%s is one unknown event', (_name, seq) => {
      expect(decode(b(seq))).toEqual([`unknown(${JSON.stringify(seq)})`]);
    });

    it('an X10 mouse report split before its three bytes waits for them', () => {
      const d = new KeyDecoder();
      expect(feedOnly(d, b('\x1b[M '))).toEqual([]);
      expect(feedOnly(d, b('!!a'))).toEqual([`unknown(${JSON.stringify('\x1b[M !!')})`, "'a'"]);
    });

    it('an OSC reply split across feeds is one unknown event', () => {
      const d = new KeyDecoder();
      expect(feedOnly(d, b('\x1b]11;rgb:00'))).toEqual([]);
      expect(feedOnly(d, b('00/0000/0000\x1b'))).toEqual([]);
      expect(feedOnly(d, b('\\x'))).toEqual([`unknown(${JSON.stringify('\x1b]11;rgb:0000/0000/0000\x1b\\')})`, "'x'"]);
    });

    it('a malformed CSI interrupted by a control byte does not swallow the control key', () => {
      expect(decode(b('\x1b[1\x03'))).toEqual(['unknown("\\u001b[1")', 'ctrl-c']);
    });
  });

  describe('byte accounting', () => {
    const mixed = Buffer.concat([
      u('hello wörld 中文 🙂\r'),
      b('\x1b\x1b[A\x1bOB\x1b[1;5C\x1b[3~\x1b[15;2~\x1b[Z\x1bx\x1b\x7f'),
      b('\x03\x04\x1a\x1c\x01\t\x7f\x08\n'),
      u('\x1b[200~pasted ✓ text\r\x1b[B\x1b[201~'),
      b('\x1b[27u\x1b[13u\x1b[99;5u\x1b[I\x1b[O\x1b[<0;1;2M\x1b[M !!'),
      b('\x1b]11;rgb:0000/0000/0000\x07\x1b[12;40R'),
      Buffer.from([0xff, 0xc3]),
      u('ü end'),
      b('\x1b'),
    ]);

    /** Deterministic PRNG (mulberry32) so a failure is reproducible from its seed. */
    function rng(seed: number): () => number {
      let a = seed >>> 0;
      return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    }

    it('the bytes of all events equal the input, and the events are the same, for 2000 random splits', () => {
      const reference = decode(mixed);
      for (let seed = 1; seed <= 2000; seed++) {
        const random = rng(seed);
        const chunks: Buffer[] = [];
        for (let at = 0; at < mixed.length; ) {
          const size = 1 + Math.floor(random() * (random() < 0.5 ? 4 : 40));
          chunks.push(mixed.subarray(at, at + size));
          at += size;
        }
        const d = new KeyDecoder();
        const events = [...chunks.flatMap((c) => d.feed(c)), ...d.flush()];
        expect(Buffer.concat(events.map((e) => e.bytes)), `seed ${seed}`).toEqual(mixed);
        expect(events.map(show), `seed ${seed}`).toEqual(reference);
      }
    });

    it('flushing at random points also keeps every byte', () => {
      for (let seed = 1; seed <= 500; seed++) {
        const random = rng(seed);
        const d = new KeyDecoder();
        const events: KeyEvent[] = [];
        for (let at = 0; at < mixed.length; ) {
          const size = 1 + Math.floor(random() * 8);
          events.push(...d.feed(mixed.subarray(at, at + size)));
          if (random() < 0.3) events.push(...d.flush());
          at += size;
        }
        events.push(...d.flush());
        expect(Buffer.concat(events.map((e) => e.bytes)), `seed ${seed}`).toEqual(mixed);
      }
    });
  });
});

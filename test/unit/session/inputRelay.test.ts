// The input path: bytes reach the agent untouched and in order, and while a prompt is watched, the
// recorder sees a decisive key before the key's bytes are forwarded.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LONE_ESC_TIMEOUT_MS } from '../../../src/core/keyDecoder.js';
import type { KeyEvent } from '../../../src/core/keys.js';
import { InputRelay } from '../../../src/session/inputRelay.js';

/** Records, in one timeline, what the recorder saw and what reached the agent. */
function setup(watching: boolean) {
  const timeline: string[] = [];
  const forwarded: Buffer[] = [];
  const observer = {
    watching,
    handleKey: (key: KeyEvent) => timeline.push(`key:${key.type === 'key' ? key.name : key.type === 'char' ? key.char : key.type}`),
  };
  const relay = new InputRelay((bytes) => {
    forwarded.push(Buffer.from(bytes));
    timeline.push(`fwd:${JSON.stringify(bytes.toString('latin1'))}`);
  }, observer);
  return { relay, timeline, observer, sent: () => Buffer.concat(forwarded).toString('latin1') };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('InputRelay', () => {
  it('while watching, an Esc that ends a read is seen by the recorder before it is forwarded, with no delay', () => {
    const { relay, timeline } = setup(true);
    relay.handleInput(Buffer.from('\x1b'));
    expect(timeline).toEqual(['key:esc', 'fwd:"\\u001b"']);
  });

  it('while watching, a sequence split across reads is held, then decoded and forwarded whole', () => {
    const { relay, timeline, sent } = setup(true);
    relay.handleInput(Buffer.from('\x1b['));
    expect(timeline).toEqual([]); // held: it may still become an arrow key
    relay.handleInput(Buffer.from('B'));
    expect(timeline).toEqual(['key:down', 'fwd:"\\u001b[B"']);
    expect(sent()).toBe('\x1b[B');
  });

  it('while watching, an unfinished sequence is decided after the lone-Esc timeout, then forwarded', () => {
    const { relay, timeline, sent } = setup(true);
    relay.handleInput(Buffer.from('\x1b['));
    vi.advanceTimersByTime(LONE_ESC_TIMEOUT_MS);
    expect(sent()).toBe('\x1b[');
    expect(timeline.findIndex((t) => t.startsWith('key:'))).toBeLessThan(timeline.findIndex((t) => t.startsWith('fwd:')));
  });

  it('when not watching, every byte is forwarded at once, even the start of a sequence', () => {
    const { relay, sent } = setup(false);
    relay.handleInput(Buffer.from('ab\x1b['));
    expect(sent()).toBe('ab\x1b[');
    relay.handleInput(Buffer.from('A'));
    expect(sent()).toBe('ab\x1b[A'); // nothing forwarded twice
  });

  it('when not watching, an Esc that ends a read is still decided at once: a digit read later is a digit, not Alt+digit', () => {
    const { relay, timeline, sent } = setup(false);
    relay.handleInput(Buffer.from('\x1b'));
    relay.handleInput(Buffer.from('1'));
    expect(timeline).toEqual(['fwd:"\\u001b"', 'key:esc', 'key:1', 'fwd:"1"']);
    expect(sent()).toBe('\x1b1');
  });

  it('when not watching, an unfinished sequence is decided after the lone-Esc timeout, its bytes never forwarded twice', () => {
    const { relay, timeline, sent } = setup(false);
    relay.handleInput(Buffer.from('\x1b['));
    vi.advanceTimersByTime(LONE_ESC_TIMEOUT_MS);
    relay.handleInput(Buffer.from('2'));
    expect(timeline.filter((t) => t.startsWith('key:')).at(-1)).toBe('key:2');
    expect(sent()).toBe('\x1b[2');
  });

  it('keys are forwarded untouched and in order across any split, watching or not', () => {
    const input = Buffer.from('y\x1b[Bn\r\x1b[200~pasted\rtext\x1b[201~\x03é\x1bOA');
    for (const watching of [true, false]) {
      for (let cut = 1; cut < input.length; cut++) {
        const { relay, sent, observer } = setup(watching);
        relay.handleInput(input.subarray(0, cut));
        observer.watching = !watching; // the recorder may change its mind between reads
        relay.handleInput(input.subarray(cut));
        vi.advanceTimersByTime(LONE_ESC_TIMEOUT_MS);
        relay.dispose();
        expect(sent()).toBe(input.toString('latin1'));
      }
    }
  });
});

// @ts-check
// A small stdin key decoder for the fake agents: enough of what crossterm (Codex) and Ink
// (Gemini, Claude) decode to react to the keys the approval prompts use.
import { StringDecoder } from 'node:string_decoder';

/**
 * How long a lone ESC waits for the rest of an escape sequence before it counts as the Esc key.
 * Terminals and TUIs use a short timeout like this; 25 ms is far below human key repeat yet long
 * enough for a sequence split across two pty reads.
 */
export const LONE_ESC_TIMEOUT_MS = 25;

const CSI_FINAL = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', Z: 'shift-tab' };
const CSI_TILDE = { 1: 'home', 2: 'insert', 3: 'delete', 4: 'end', 5: 'page-up', 6: 'page-down' };

/**
 * Decodes `input` into key events: `{ name }` for named keys (esc, enter, tab, backspace, up, down,
 * left, right, ctrl-c, ctrl-d, …) and `{ name: 'char', char }` for text. Returns a dispose function.
 */
export function readKeys(input, onKey) {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let escTimer;

  const emit = (key) => onKey(key);

  const flushLoneEsc = () => {
    escTimer = undefined;
    if (pending === '\x1b') {
      pending = '';
      emit({ name: 'esc' });
    }
  };

  const parse = () => {
    let i = 0;
    const s = pending;
    while (i < s.length) {
      const c = s[i];
      if (c === '\x1b') {
        if (i + 1 >= s.length) break; // maybe the start of a sequence: wait for more
        const n = s[i + 1];
        if (n === '[') {
          let j = i + 2;
          while (j < s.length && !/[\x40-\x7e]/.test(s[j])) j++;
          if (j >= s.length) break; // incomplete CSI
          const params = s.slice(i + 2, j);
          const final = s[j];
          if (final === '~' && params === '200') {
            // Bracketed paste: deliver the pasted text as characters.
            const end = s.indexOf('\x1b[201~', j + 1);
            if (end < 0) break;
            for (const ch of s.slice(j + 1, end)) emit({ name: 'char', char: ch });
            i = end + 6;
            continue;
          }
          const name = final === '~' ? CSI_TILDE[params.split(';')[0]] : CSI_FINAL[final];
          emit(name ? { name } : { name: 'unknown', seq: s.slice(i, j + 1) });
          i = j + 1;
          continue;
        }
        if (n === 'O') {
          if (i + 2 >= s.length) break;
          const name = CSI_FINAL[s[i + 2]];
          emit(name ? { name } : { name: 'unknown', seq: s.slice(i, i + 3) });
          i += 3;
          continue;
        }
        if (n === '\x1b') {
          emit({ name: 'esc' });
          i += 1;
          continue;
        }
        emit({ name: 'char', char: n, alt: true });
        i += 2;
        continue;
      }
      i++;
      if (c === '\r' || c === '\n') emit({ name: 'enter' });
      else if (c === '\t') emit({ name: 'tab' });
      else if (c === '\x7f' || c === '\b') emit({ name: 'backspace' });
      else if (c === '\x03') emit({ name: 'ctrl-c' });
      else if (c === '\x04') emit({ name: 'ctrl-d' });
      else if (c < ' ') emit({ name: `ctrl-${String.fromCharCode(c.charCodeAt(0) + 96)}` });
      else emit({ name: 'char', char: c });
    }
    pending = s.slice(i);
    if (escTimer) clearTimeout(escTimer);
    escTimer = pending === '\x1b' ? setTimeout(flushLoneEsc, LONE_ESC_TIMEOUT_MS) : undefined;
  };

  const onData = (chunk) => {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    parse();
  };
  input.on('data', onData);
  return () => {
    input.off('data', onData);
    if (escTimer) clearTimeout(escTimer);
  };
}

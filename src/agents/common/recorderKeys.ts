// How the recorder sorts the user's keys and the screen they land on (never the text typed).
import type { KeyEvent } from '../../core/keys.js';
import type { PromptView, ScreenReading } from './agentProfile.js';

/** A deciding key's class for the debug log: its name, or `digit` (never the text typed). */
export function keyClass(key: KeyEvent): string {
  return key.type === 'key' ? `${key.alt ? 'alt-' : ''}${key.name}` : 'digit';
}

/** Whether the screen shows something a key answers (the keys then go to it at once). */
export function shownReading(s: ScreenReading<PromptView>): boolean {
  return s.prompt !== undefined || s.menu !== undefined || s.sessionDialog !== undefined || s.unreadOptionList === true;
}

export function screenState(s: ScreenReading<PromptView>): string {
  const shown = [s.prompt ? 'prompt' : '', s.menu ? 'menu' : '', s.sessionDialog ? 'session dialog' : '', s.working ? 'working' : '', s.unreadOptionList ? 'unread option list' : ''].filter(Boolean);
  return shown.length > 0 ? shown.join(', ') : 'idle';
}

/** Keys that answer a prompt (Enter, Esc, Ctrl+C, an option's digit); letters are left out, as they mostly type text. */
export function answersPrompt(key: KeyEvent): boolean {
  if (key.type === 'char') return /^[0-9]$/.test(key.char);
  return key.type === 'key' && (key.name === 'enter' || key.name === 'esc' || key.name === 'ctrl-c');
}

/** Keys that may decide a prompt or cut a turn (anything else only moves or types). */
export function mayDecide(key: KeyEvent): boolean {
  if (key.type === 'char') return true;
  return key.type === 'key' && (key.name === 'enter' || key.name === 'esc' || key.name === 'ctrl-c');
}

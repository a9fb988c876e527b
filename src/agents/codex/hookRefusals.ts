// Who refused a call when the rollout does not say: a hook of the user's that answered
// PermissionRequest with a deny and a message of its own writes the same output as a rule that
// forbids the command (`Rejected("<message>")`), but Codex draws the hook's refusal on screen as
// `• Blocked by hook` / `  └ <message>` (docs/codex-auto-review.md §6a). The call whose output holds
// that message is the hook's refusal; the screen and the rollout come in either order, so whichever
// is seen first waits for the other.
import type { Evidence } from '../../core/events.js';
import type { SessionFact } from '../common/agentProfile.js';
import type { RefusingHook } from './harnessRefusal.js';
import type { CodexStrings } from './strings/index.js';

/** Refusals kept waiting for the screen: a cell follows its refusal within moments, the last few suffice. */
const WAITING_KEPT = 64;

export class HookRefusals {
  /** The messages the screen showed under `Blocked by hook` in this run, as drawn (normalized). */
  private readonly _shown = new Set<string>();
  /** Refusals whose message the screen has not shown under `Blocked by hook` yet. */
  private _waiting: Array<{ readonly callId: string; readonly message: string; readonly drawn: DrawnMessage }> = [];

  constructor(private readonly _strings: () => CodexStrings) {}

  /** The `Blocked by hook` cells on screen now: the refusals that waited for one of them, now the hook's. */
  shown(messages: readonly string[]): SessionFact[] {
    const facts: SessionFact[] = [];
    for (const message of messages) {
      const key = drawn(message);
      if (key === '' || this._shown.has(key)) continue;
      this._shown.add(key);
      const tied = this._waiting.filter((w) => w.drawn.fits(key));
      for (const w of tied) facts.push(hookRefusal(w.callId, w.message, 'PermissionRequest', SCREEN_AND_FILE));
      this._waiting = this._waiting.filter((w) => !tied.includes(w));
    }
    return facts;
  }

  /**
   * A call the rollout shows refused before it ran with a message that names no refuser: the hook's
   * once the screen shows that message blocked by a hook (at once if it already has), else nothing.
   */
  refused(callId: string, message: string): SessionFact[] {
    const d = new DrawnMessage(message, this._strings().outputTruncated);
    for (const key of this._shown) if (d.fits(key)) return [hookRefusal(callId, message, 'PermissionRequest', SCREEN_AND_FILE)];
    this._waiting.push({ callId, message, drawn: d });
    if (this._waiting.length > WAITING_KEPT) this._waiting.shift();
    return [];
  }
}

/**
 * A refusal's message as the rollout has it, to compare with a cell's: Codex cuts the middle out of
 * a long output in the rollout (`…1070 chars truncated…`), while the cell shows the message whole.
 */
class DrawnMessage {
  private readonly _head: string;
  private readonly _tail: string | undefined;

  constructor(message: string, truncated: RegExp | undefined) {
    const cut = truncated?.exec(message);
    this._head = drawn(cut ? message.slice(0, cut.index) : message);
    this._tail = cut ? drawn(message.slice(cut.index + cut[0].length)) : undefined;
  }

  /** Whether a cell's message, as drawn, is this message. */
  fits(shown: string): boolean {
    if (this._tail === undefined) return shown === this._head;
    return shown.length >= this._head.length + this._tail.length && shown.startsWith(this._head) && shown.endsWith(this._tail);
  }
}

const SCREEN_AND_FILE: readonly Evidence[] = ['screen', 'session_file'];

/** A hook's refusal: no person decided, the hook's message is the reason. */
export function hookRefusal(callId: string, message: string, hook: RefusingHook, evidence: readonly Evidence[]): SessionFact {
  return { type: 'refused', callId, decidedBy: 'hook', trigger: 'hook', reason: message, native: { hook }, evidence, source: 'session_file' };
}

/**
 * A message as the screen can show it: the terminal drops control characters and lays tabs, line
 * breaks and wraps out as spaces and rows, so only the other characters are compared.
 */
function drawn(message: string): string {
  return message.replace(/[\s\p{Cc}]+/gu, '');
}

// The Codex recorder: watches the screen for approval prompts and the task menu, turns the user's
// decisive keys into events before Codex sees them, and lets codexFacts.ts complete those events
// from the rollout and the hooks.
import type { AgentExit, Recorder, RecorderContext } from '../agentAdapter.js';
import type { KeyEvent } from '../../core/keys.js';
import { DisposableStore, toDisposable } from '../../core/lifecycle.js';
import type { ListOption } from '../common/optionList.js';
import { CodexFacts, PROMPT_EVENT_KIND, type CallState, type PromptInstance } from './codexFacts.js';
import { parseCodexScreen, type CodexScreen, type CodexTaskMenu } from './promptParser.js';
import { findRollout } from './rolloutLocator.js';
import type { OptionMeaning } from './strings/index.js';

/** How often the rollout is read while Codex runs; keys also read it at once. */
export const ROLLOUT_POLL_MS = 200;
/** How often $CODEX_HOME/sessions is scanned while no hook has named the rollout yet. */
export const ROLLOUT_SCAN_MS = 1_000;
/**
 * After Codex exits the daemon may still write the turn's end (Exit and Run in background leave
 * the turn to the app-server daemon); read the rollout this long at most before finishing.
 */
export const RECONCILE_AFTER_EXIT_MS = 5_000;

type Trigger = 'esc' | 'ctrl_c' | 'enter' | 'digit' | 'letter';

interface Choice {
  readonly option?: ListOption;
  readonly trigger: Trigger;
}

export class CodexRecorder extends CodexFacts implements Recorder {
  private readonly _store = new DisposableStore();
  private _screen: CodexScreen;
  private _seenSeq = -1;
  private _onScreen: PromptInstance | undefined;
  private _menuExpectedHighlight: number | undefined;
  private _lastScan = 0;

  constructor(
    private readonly _ctx: RecorderContext,
    private readonly _options: { readonly reconcileAfterExitMs?: number } = {},
  ) {
    super(_ctx.sink);
    this._screen = parseCodexScreen(_ctx.screen.snapshot(), this._strings);
    this._store.add(_ctx.screen.onDidRender(() => this._render()));
    this._store.add(_ctx.hooks((m) => this._onHook(m)));
    const timer = setInterval(() => this._tick(), ROLLOUT_POLL_MS);
    timer.unref();
    this._store.add(toDisposable(() => clearInterval(timer)));
    this._render();
  }

  get watching(): boolean {
    // Asked before each key: the rollout may have opened or closed a turn since the last tick.
    this._pollRollout();
    const s = this._screen;
    return s.prompt !== undefined || s.taskMenu !== undefined || s.working || this._turnOpenInRollout || this._turnOpenByHook;
  }

  handleKey(key: KeyEvent): void {
    this._tick(true);
    this._render();
    const screen = this._screen;
    if (screen.prompt) this._promptKey(key);
    else if (screen.taskMenu) this._menuKey(key, screen.taskMenu);
    else if (key.type === 'key' && key.name === 'esc' && (screen.working || this._turnOpenInRollout || this._turnOpenByHook)) {
      this._interrupt('esc', null, 'interrupted');
    }
  }

  async handleExit(_exit: AgentExit): Promise<void> {
    this._tick(true);
    this._render();
    // The prompt may already be gone from the screen (Codex clears it on exit): the last prompt
    // without a decision whose call has no outcome is the one left open.
    const open = this._prompts.filter((p) => !p.decision).at(-1);
    const openCall = open?.callId ? this._calls.get(open.callId) : undefined;
    if (open && open === this._prompts.at(-1) && openCall?.output === undefined && openCall?.fate === undefined) {
      // Codex left with the prompt unanswered: the call stays pending in its daemon.
      const call = open.callId ? this._calls.get(open.callId) : undefined;
      if (call) call.fate = 'prompt_open';
      this._event({
        type: 'interruption',
        kind: 'prompt',
        trigger: 'exit',
        ...this._callFields(call),
        prompt_event_id: open.eventId,
        ran: 'no',
        evidence: ['screen'],
      });
      if (call?.turnId) this._turnCause.set(call.turnId, call.callId);
    }
    const deadline = Date.now() + (this._options.reconcileAfterExitMs ?? RECONCILE_AFTER_EXIT_MS);
    while (Date.now() < deadline && (this._turnOpenInRollout || this._rolloutFile === undefined)) {
      await new Promise((r) => setTimeout(r, ROLLOUT_POLL_MS));
      this._tick(true);
    }
  }

  dispose(): void {
    this._store.dispose();
  }

  private _tick(force = false): void {
    if (this._rolloutFile === undefined) {
      const now = Date.now();
      if (force || now - this._lastScan >= ROLLOUT_SCAN_MS) {
        this._lastScan = now;
        const found = findRollout(this._ctx.env, this._ctx.cwd, this._ctx.startedAt);
        if (found) this._followRollout(found, false);
      }
    }
    this._pollRollout();
  }

  private _render(): void {
    const snapshot = this._ctx.screen.snapshot();
    if (snapshot.seq === this._seenSeq) return;
    this._seenSeq = snapshot.seq;
    this._screen = parseCodexScreen(snapshot, this._strings);
    const prompt = this._screen.prompt;
    if (!prompt) {
      this._onScreen = undefined;
    } else if (this._onScreen?.parsed.identity === prompt.identity) {
      const open = this._onScreen;
      open.parsed = prompt;
      if (open.expectedHighlight !== undefined && open.expectedHighlight === prompt.highlighted) delete open.expectedHighlight;
    } else {
      this._openPrompt();
    }
    if (!this._screen.taskMenu) this._menuExpectedHighlight = undefined;
    else if (this._menuExpectedHighlight === this._screen.taskMenu.highlighted) this._menuExpectedHighlight = undefined;
    if (this._screen.working) this._markRunning();
  }

  private _openPrompt(): PromptInstance {
    // The call is usually in the rollout before its prompt is drawn: read it now, not at the next tick.
    this._pollRollout();
    const parsed = this._screen.prompt!;
    const details: Record<string, string> = { ...parsed.details, ...(parsed.command !== undefined ? { command: parsed.command } : {}) };
    const eventId = this._event({
      type: 'prompt',
      kind: PROMPT_EVENT_KIND[parsed.kind],
      decided_by: null,
      prompt: { title: parsed.title, details, options: parsed.options.map((o) => ({ label: o.label, ...(o.key ? { key: o.key } : {}) })) },
      evidence: ['screen'],
    });
    const instance: PromptInstance = { parsed, eventId };
    this._prompts.push(instance);
    this._onScreen = instance;
    this._matchPrompts();
    return instance;
  }

  /** A call approved and without output while Codex works is running. */
  private _markRunning(): void {
    for (const call of this._calls.values()) {
      if (call.fate === 'approved' && call.output === undefined && call.ran !== 'yes') {
        call.ran = 'yes';
        this._refreshCallEvents(call);
      }
    }
  }

  private _promptKey(key: KeyEvent): void {
    let open = this._onScreen ?? this._openPrompt();
    const parsed = open.parsed;
    const current = open.expectedHighlight ?? parsed.highlighted ?? 1;
    if (key.type === 'key' && (key.name === 'up' || key.name === 'down')) {
      open.expectedHighlight = this._move(current, key.name === 'up' ? -1 : 1, parsed.options.length);
      return;
    }
    const choice = this._choose(key, parsed.options, current);
    if (!choice) return;
    // Identical prompts of a batch can follow each other without a frame in between.
    if (open.decision) open = this._openPrompt();
    const meaning = choice.option ? this._meaning(choice.option.label) : undefined;
    const rejects = choice.trigger === 'ctrl_c' || meaning?.decision !== 'approve';
    const call = open.callId ? this._calls.get(open.callId) : undefined;
    const type = rejects ? 'rejection' : 'approval';
    const eventId = this._event({
      type,
      kind: PROMPT_EVENT_KIND[parsed.kind],
      trigger: choice.trigger,
      option_label: choice.option?.label ?? null,
      ...(rejects ? { reason_source: 'none', ran: 'no' } : { scope: meaning?.scope ?? 'once', ran: 'unknown' }),
      ...this._callFields(call),
      prompt_event_id: open.eventId,
      evidence: call ? ['screen', 'keys', call.fromRollout ? 'session_file' : 'hook'] : ['screen', 'keys'],
    });
    // Esc, Ctrl+C and "No, and tell Codex…" cancel the turn; "No, continue without running it" does not.
    const endsTurn = rejects && (choice.trigger === 'esc' || choice.trigger === 'ctrl_c' || meaning?.endsTurn !== false);
    open.decision = { eventId, type, endsTurn };
    if (rejects) this._awaitingReason.push(eventId);
    if (call) this._bindPrompt(open, call);
  }

  private _choose(key: KeyEvent, options: readonly ListOption[], highlighted: number): Choice | undefined {
    const firstReject = () =>
      options.find((o) => o.key === 'esc') ?? options.find((o) => this._meaning(o.label)?.decision === 'reject');
    if (key.type === 'char') {
      if (/^[0-9]$/.test(key.char)) {
        const option = options.find((o) => o.number === Number(key.char));
        return option ? { option, trigger: 'digit' } : undefined;
      }
      const option = options.find((o) => o.key === key.char);
      if (option) return { option, trigger: 'letter' };
      if (this._strings.hiddenRejectLetters.includes(key.char)) {
        const reject = firstReject();
        return reject ? { option: reject, trigger: 'letter' } : undefined;
      }
      return undefined;
    }
    if (key.type !== 'key') return undefined;
    if (key.name === 'esc') {
      const reject = firstReject();
      return { ...(reject ? { option: reject } : {}), trigger: 'esc' };
    }
    if (key.name === 'ctrl-c') return { trigger: 'ctrl_c' };
    if (key.name === 'enter') {
      const option = options.find((o) => o.number === highlighted);
      return option ? { option, trigger: 'enter' } : undefined;
    }
    return undefined;
  }

  private _meaning(label: string): (OptionMeaning & { endsTurn?: boolean }) | undefined {
    const meaning = this._strings.optionMeanings.find((m) => label.startsWith(m.labelPrefix));
    if (!meaning) return undefined;
    // Only "tell Codex what to do differently" cancels the turn; the other "No" options decline and go on.
    return { ...meaning, endsTurn: meaning.decision === 'reject' ? label.startsWith('No, and tell') : false };
  }

  private _move(current: number, delta: number, count: number): number {
    if (count === 0) return current;
    const next = current + delta;
    if (this._strings.selectionWraps) return ((next - 1 + count) % count) + 1;
    return Math.min(Math.max(next, 1), count);
  }

  private _menuKey(key: KeyEvent, menu: CodexTaskMenu): void {
    const current = this._menuExpectedHighlight ?? menu.highlighted ?? 1;
    let option: ListOption | undefined;
    if (key.type === 'key' && (key.name === 'up' || key.name === 'down')) {
      this._menuExpectedHighlight = this._move(current, key.name === 'up' ? -1 : 1, menu.options.length);
      return;
    }
    if (key.type === 'char' && /^[0-9]$/.test(key.char)) option = menu.options.find((o) => o.number === Number(key.char));
    else if (key.type === 'key' && key.name === 'enter') option = menu.options.find((o) => o.number === current);
    const chosen = menu.options.find((o) => o === option);
    if (!chosen?.action) return;
    this._interrupt('ctrl_c', chosen.shortLabel, chosen.action === 'background' ? 'detached' : 'interrupted');
  }

  /** Esc while working, or a choice in the Ctrl+C task menu. */
  private _interrupt(trigger: Trigger, optionLabel: string | null, how: 'interrupted' | 'detached'): void {
    const running = [...this._calls.values()]
      .filter((c): c is CallState => c.fate === 'approved' && c.output === undefined)
      .sort((a, b) => b.order - a.order)[0];
    const kind = how === 'detached' ? 'detached' : running ? 'tool' : 'response';
    const partial = kind === 'response' ? this._screen.answerText : undefined;
    const eventId = this._event({
      type: 'interruption',
      kind,
      trigger,
      option_label: optionLabel,
      ...this._callFields(running),
      ...(running ? { related_call_id: running.callId } : {}),
      partial_output: partial ?? null,
      evidence: ['screen', 'keys'],
    });
    if (how === 'detached') return;
    if (running) {
      running.fate = 'interrupted';
      if (running.turnId) this._turnCause.set(running.turnId, running.callId);
    }
    const turn = running?.turnId ?? this._currentTurnId;
    if (turn !== undefined) this._turnEvents.set(turn, [...(this._turnEvents.get(turn) ?? []), eventId]);
  }
}

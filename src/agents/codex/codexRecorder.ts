// The Codex recorder: watches the screen for approval prompts and the task menu, turns the user's
// decisive keys into events before Codex sees them, takes back a decision Codex ignored, and lets
// codexFacts.ts complete those events from the rollout (and the hooks, when opted in).
import type { AgentExit, Recorder, RecorderContext } from '../agentAdapter.js';
import type { KeyEvent } from '../../core/keys.js';
import { DisposableStore, toDisposable, type Disposable } from '../../core/lifecycle.js';
import type { ListOption } from '../common/optionList.js';
import { promptShowsCall } from './callMatcher.js';
import { CodexFacts, PROMPT_EVENT_KIND, type CallState, type PromptInstance } from './codexFacts.js';
import { choosePromptOption, moveHighlight, optionMeaning, type PromptTrigger } from './promptKeys.js';
import { parseCodexScreen, type CodexPrompt, type CodexScreen, type CodexTaskMenu } from './promptParser.js';
import { systemClock, waitOn, type RecorderClock } from '../common/recorderClock.js';
import { RolloutChooser } from './rolloutChooser.js';
import { LATEST_CODEX_STRINGS } from './strings/index.js';

/** How often the rollout is read while Codex runs; keys also read it at once. */
export const ROLLOUT_POLL_MS = 200;
/** How often $CODEX_HOME/sessions is scanned while this run's rollout is not confirmed yet. */
export const ROLLOUT_SCAN_MS = 1_000;
/**
 * Codex 0.169.0 drops a key that arrives within ~5 ms of a prompt appearing. A decision is committed
 * before its key reaches Codex (durability); if, this long after the key and once the screen model
 * has caught up, the same prompt is still open and unchanged (no ✔/✗ row, no outcome in the
 * rollout), Codex ignored the key and the decision is retracted. Codex redraws within a frame of a
 * key it takes, so this is far longer than needed; it only has to outlast a loaded machine.
 */
export const IGNORED_KEY_SETTLE_MS = 1_000;

export interface CodexRecorderOptions {
  readonly ignoredKeySettleMs?: number;
  /** Default systemClock; a replay of a recorded session drives the recorder's timers itself. */
  readonly clock?: RecorderClock;
}

interface PendingCheck {
  readonly prompt: PromptInstance;
  readonly eventId: string;
  readonly rowsAtKey: number;
}

export class CodexRecorder extends CodexFacts implements Recorder {
  private readonly _store = new DisposableStore();
  private _screen: CodexScreen;
  private _seenSeq = -1;
  /** The prompt that is the live bottom pane now; undefined when none is. */
  private _onScreen: PromptInstance | undefined;
  private _menuExpectedHighlight: number | undefined;
  private _lastScan = 0;
  private readonly _chooser: RolloutChooser;
  /** Codex's own state from its status OSC; undefined until Codex sends one (older versions never do). */
  private _oscState: string | undefined;
  private readonly _checks = new Set<Disposable>();
  private readonly _clock: RecorderClock;
  private _disposed = false;

  constructor(
    private readonly _ctx: RecorderContext,
    private readonly _options: CodexRecorderOptions = {},
  ) {
    super(_ctx.sink);
    this._clock = _options.clock ?? systemClock;
    this._chooser = new RolloutChooser(_ctx.env, _ctx.cwd, _ctx.startedAt);
    this._screen = parseCodexScreen(_ctx.screen.snapshot(), this._strings);
    const osc = LATEST_CODEX_STRINGS.statusOsc;
    if (osc && _ctx.screen.watchOsc) {
      this._store.add(_ctx.screen.watchOsc(osc.ident)((data) => {
        this._oscState = /(?:^|:)state=([\w-]+)/.exec(data)?.[1] ?? this._oscState;
      }));
    }
    this._store.add(_ctx.screen.onDidRender(() => this._render()));
    this._store.add(_ctx.hooks((m) => this._onHook(m)));
    this._store.add(this._clock.setInterval(() => this._tick(), ROLLOUT_POLL_MS));
    this._store.add(toDisposable(() => {
      for (const t of this._checks) t.dispose();
      this._checks.clear();
    }));
    this._render();
  }

  get watching(): boolean {
    // Asked before each key: the rollout may have opened or closed a turn since the last tick.
    this._pollRollout();
    const s = this._screen;
    return s.prompt !== undefined || s.taskMenu !== undefined || s.working || this._turnOpenInRollout || this._turnOpenByHook;
  }

  handleKey(key: KeyEvent): void {
    // On the key's path (it waits for this): read what the known rollout appended, never scan for
    // rollouts — the timer does that; a decision learns its call_id when the rollout is matched.
    this._pollRollout();
    this._render();
    const screen = this._screen;
    if (this._onScreen) this._promptKey(key, this._onScreen);
    else if (screen.prompt) return; // a decided prompt still drawn: its keys decide nothing more
    else if (screen.taskMenu) this._menuKey(key, screen.taskMenu);
    else if (key.type === 'key' && key.name === 'esc' && !key.alt && (screen.working || this._turnOpenInRollout || this._turnOpenByHook)) {
      this._interrupt('esc', null, 'interrupted');
    }
  }

  async handleExit(_exit: AgentExit, stop: AbortSignal): Promise<void> {
    this._tick(true);
    this._render();
    // The prompt may already be gone from the screen (Codex clears it on exit): the last prompt
    // without a decision whose call has no outcome is the one left open.
    const open = this._prompts.filter((p) => !p.decision).at(-1);
    const openCall = open?.callId ? this._calls.get(open.callId) : undefined;
    if (open && open === this._prompts.at(-1) && openCall?.output === undefined && openCall?.fate === undefined) {
      // Codex left with the prompt unanswered: the call stays pending in its daemon.
      if (openCall) openCall.fate = 'prompt_open';
      this._event({
        type: 'interruption',
        kind: 'prompt',
        trigger: 'exit',
        ...this._callFields(openCall),
        prompt_event_id: open.eventId,
        ran: 'no',
        evidence: ['screen'],
      });
      if (openCall?.turnId) this._turnCause.set(openCall.turnId, openCall.callId);
    }
    // After Codex exits the daemon may still write the turn's end (Exit and Run in background
    // leave the turn to the app-server daemon): wait only for something to reconcile, a turn still
    // open in the rollout or events whose rollout was not found yet, and only until told to stop.
    // A session that recorded nothing exits at once.
    const unmatched = () => this._rolloutFile === undefined && this._book.all().length > 0;
    while (!stop.aborted && !this._disposed && (this._turnOpenInRollout || unmatched())) {
      await waitOn(this._clock, ROLLOUT_POLL_MS, stop);
      if (stop.aborted || this._disposed) break;
      this._tick(true);
    }
  }

  dispose(): void {
    this._disposed = true;
    this._store.dispose();
  }

  private _tick(force = false): void {
    // A timer's work that was already queued when the recorder was disposed: the store may be closed.
    if (this._disposed) return;
    if (this._rolloutFile === undefined) {
      const now = this._clock.now();
      if (force || now - this._lastScan >= ROLLOUT_SCAN_MS) {
        this._lastScan = now;
        const witness = { userMessages: this._screen.userMessages, ...(this._screen.prompt ? { prompt: this._screen.prompt } : {}) };
        const found = this._chooser.choose(witness, this._strings);
        if (found) this._followRollout(found, false);
      }
    }
    this._pollRollout();
  }

  /** Whether Codex says a prompt waits; true when it never said anything (nothing to contradict the screen). */
  private _blockedOrUnknown(): boolean {
    const osc = this._strings.statusOsc ?? LATEST_CODEX_STRINGS.statusOsc;
    return this._oscState === undefined || osc === undefined || this._oscState === osc.blockedState;
  }

  private _render(): void {
    const snapshot = this._ctx.screen.snapshot();
    if (snapshot.seq === this._seenSeq) return;
    this._seenSeq = snapshot.seq;
    this._screen = parseCodexScreen(snapshot, this._strings);
    const prompt = this._blockedOrUnknown() ? this._screen.prompt : undefined;
    if (!prompt) {
      this._onScreen = undefined;
    } else if (this._onScreen?.parsed.identity === prompt.identity) {
      const open = this._onScreen;
      open.parsed = prompt;
      if (open.expectedHighlight !== undefined && open.expectedHighlight === prompt.highlighted) delete open.expectedHighlight;
    } else {
      this._onScreen = this._adoptPrompt(prompt);
    }
    if (!this._screen.taskMenu) this._menuExpectedHighlight = undefined;
    else if (this._menuExpectedHighlight === this._screen.taskMenu.highlighted) this._menuExpectedHighlight = undefined;
  }

  /**
   * A live prompt that was not live in the last frame: the same undecided prompt redrawn (resize,
   * repaint), a new prompt, or what is left of a decided one (undefined: it takes no keys). A
   * decided prompt counts again only when it is redrawn for another call still pending.
   */
  private _adoptPrompt(prompt: CodexPrompt): PromptInstance | undefined {
    // A prompt is the best witness for which rollout is this run's: look for it while it shows
    // (once per new prompt; keys never trigger a scan).
    if (this._rolloutFile === undefined) this._tick(true);
    else this._pollRollout();
    const last = [...this._prompts].reverse().find((p) => p.parsed.identity === prompt.identity);
    if (last && !last.decision) {
      last.parsed = prompt;
      return last;
    }
    if (last?.decision) {
      const pendingShown = this._pendingCalls().some((c) => c.callId !== last.callId && promptShowsCall(prompt, c, this._strings));
      if (!pendingShown) return undefined;
    }
    return this._openPrompt(prompt);
  }

  private _openPrompt(parsed: CodexPrompt): PromptInstance {
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
    this._matchPrompts();
    return instance;
  }

  private _promptKey(key: KeyEvent, open: PromptInstance): void {
    // A decided prompt takes no more keys: until Codex redraws, the screen may still show it.
    if (open.decision) return;
    const parsed = open.parsed;
    const current = open.expectedHighlight ?? parsed.highlighted ?? 1;
    if (key.type === 'key' && (key.name === 'up' || key.name === 'down')) {
      open.expectedHighlight = moveHighlight(current, key.name === 'up' ? -1 : 1, parsed.options.length, this._strings);
      return;
    }
    const choice = choosePromptOption(key, parsed.options, current, this._strings);
    if (!choice) return;
    const meaning = choice.option ? optionMeaning(choice.option.label, this._strings) : undefined;
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
    open.turnEndsAtDecision = this._turnEnds;
    if (rejects) this._reasons.rejected(eventId);
    if (call) this._bindPrompt(open, call);
    this._scheduleIgnoredCheck({ prompt: open, eventId, rowsAtKey: this._decisionRows() });
  }

  private _decisionRows(): number {
    return this._screen.approvedRows.length + this._screen.canceledRows.length + this._screen.interruptedRows;
  }

  private _scheduleIgnoredCheck(check: PendingCheck): void {
    const timer = this._clock.setTimeout(() => {
      this._checks.delete(timer);
      return Promise.resolve(this._ctx.screen.whenIdle?.()).then(() => this._checkIgnored(check));
    }, this._options.ignoredKeySettleMs ?? IGNORED_KEY_SETTLE_MS);
    this._checks.add(timer);
  }

  /** Retracts a decision whose prompt is still open and unchanged once the screen has settled. */
  private _checkIgnored(check: PendingCheck): void {
    // The check waited for the screen model; the recorder may have been disposed meanwhile.
    if (this._disposed) return;
    this._tick(true);
    this._render();
    const open = check.prompt;
    if (this._onScreen !== open || open.decision?.eventId !== check.eventId) return;
    const call = open.callId ? this._calls.get(open.callId) : undefined;
    if (call?.output !== undefined || this._decisionRows() !== check.rowsAtKey || !this._blockedOrUnknown()) return;
    this._book.retract(check.eventId);
    this._reasons.retract(check.eventId);
    delete open.decision;
    if (call) {
      delete call.fate;
      if (call.turnId && this._turnCause.get(call.turnId) === call.callId) this._turnCause.delete(call.turnId);
    }
  }

  private _menuKey(key: KeyEvent, menu: CodexTaskMenu): void {
    const current = this._menuExpectedHighlight ?? menu.highlighted ?? 1;
    let option: ListOption | undefined;
    if (key.type === 'key' && (key.name === 'up' || key.name === 'down')) {
      this._menuExpectedHighlight = moveHighlight(current, key.name === 'up' ? -1 : 1, menu.options.length, this._strings);
      return;
    }
    if (key.type === 'char' && /^[0-9]$/.test(key.char)) option = menu.options.find((o) => o.number === Number(key.char));
    else if (key.type === 'key' && key.name === 'enter') option = menu.options.find((o) => o.number === current);
    const chosen = menu.options.find((o) => o === option);
    if (!chosen?.action) return;
    this._interrupt('ctrl_c', chosen.shortLabel, chosen.action === 'background' ? 'detached' : 'interrupted');
  }

  /** Esc while working, or a choice in the Ctrl+C task menu. */
  private _interrupt(trigger: PromptTrigger, optionLabel: string | null, how: 'interrupted' | 'detached'): void {
    const running = [...this._calls.values()]
      .filter((c): c is CallState => c.fate === 'approved' && c.output === undefined)
      .sort((a, b) => b.order - a.order)[0];
    // The rollout may trail the screen: the last prompt, approved, whose call is not read yet and
    // whose turn the rollout has not ended, is the command running now.
    const last = this._prompts.at(-1);
    const unread =
      !running && how !== 'detached' && last?.decision?.type === 'approval' && last.callId === undefined && last.turnEndsAtDecision === this._turnEnds
        ? last
        : undefined;
    const kind = how === 'detached' ? 'detached' : running || unread ? 'tool' : 'response';
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
    if (unread) unread.interruptionEventId = eventId;
    if (running) {
      running.fate = 'interrupted';
      if (running.turnId) this._turnCause.set(running.turnId, running.callId);
    }
    const turn = running?.turnId ?? this._currentTurnId;
    if (turn !== undefined) this._turnEvents.set(turn, [...(this._turnEvents.get(turn) ?? []), eventId]);
  }
}

// The shared recorder: watches the screen for approval prompts (promptTracker.ts) and an interrupt
// menu, turns the user's decisive keys into events before the agent sees them, takes back a
// decision the agent ignored, and lets callFacts.ts complete those events from the session file
// and hooks. What is the
// agent's own — its screen, its option texts, its records — comes from its profile (agentProfile.ts).
import type { AgentExit, Recorder, RecorderContext } from '../agentAdapter.js';
import type { HookMessage } from '../../core/hookMessage.js';
import type { KeyEvent } from '../../core/keys.js';
import { DisposableStore, toDisposable, type Disposable } from '../../core/lifecycle.js';
import type { AgentProfile, InterruptMenu, PromptView, ScreenReading } from './agentProfile.js';
import { CallFacts } from './callFacts.js';
import { arrowDelta, chooseMenuOption, moveHighlight, type OptionTrigger } from './optionKeys.js';
import type { PromptInstance } from './promptBook.js';
import { screenCapture, type MissCount } from './missCheck.js';
import { SessionDialogStops } from './sessionDialogStops.js';
import { KeyHold, type HeldKey } from './keyHold.js';
import { TornFrame } from './tornFrame.js';
import { EscArm } from './escArm.js';
import { answersPrompt, keyClass, mayDecide, screenState, shownReading } from './recorderKeys.js';
import { PromptTracker, type Decided } from './promptTracker.js';
import { SessionBinding, WITNESS_SETTLE_MS } from './sessionBinding.js';
import { systemClock, waitOn, type RecorderClock } from './recorderClock.js';

/** How often the session file is read while the agent runs; keys also read it at once. */
export const SESSION_POLL_MS = 200;
/** How often the agent's session folder is scanned while this run's file is not confirmed yet. */
export const SESSION_SCAN_MS = 1_000;
/**
 * Codex 0.169.0 drops a key that arrives within ~5 ms of a prompt appearing. A decision is committed
 * before its key reaches the agent (durability); if, this long after the key and once the screen
 * model has caught up, the same prompt is still open and unchanged (no decision row, no outcome in
 * the session file), the agent ignored the key and the decision is retracted. Agents redraw within
 * a frame of a key they take, so this is far longer than needed; it only has to outlast a loaded machine.
 */
export const IGNORED_KEY_SETTLE_MS = 1_000;
export interface AgentRecorderOptions {
  readonly ignoredKeySettleMs?: number;
  /** Default WITNESS_SETTLE_MS (sessionBinding.ts); a replay of one session alone may count what it shows at once. */
  readonly witnessSettleMs?: number;
  /** Default systemClock; a replay of a recorded session drives the recorder's timers itself. */
  readonly clock?: RecorderClock;
}

export class AgentRecorder<P extends PromptView = PromptView> implements Recorder {
  private readonly _store = new DisposableStore();
  private readonly _facts: CallFacts<P>;
  private readonly _prompts: PromptTracker<P>;
  private _screen: ScreenReading<P>;
  private _seenSeq = -1;
  private _menuExpectedHighlight: number | undefined;
  /**
   * The last answer text the screen showed in this turn (the user messages then on screen tell the
   * turn): an agent's marks blink (Claude's `●`), so the frame an Esc lands on may not show it.
   */
  private _lastAnswer: { readonly text: string; readonly userMessages: number } | undefined;
  /** The prompt last seen whole (for agents that redraw in place). */
  private readonly _torn: TornFrame<P>;
  /**
   * Esc or Ctrl+C at a prompt the user had just approved, still drawn: the agent may take it as a
   * cut of the approved call, or drop it (a key quicker than its redraw), and only its next screens
   * tell which. Kept until a cut row appears (an interruption then), a new prompt shows, or another
   * deciding key comes. `cutRows`: the fewest shown since the key (rows may scroll away).
   */
  private _cutAtDrawnApproval: { readonly trigger: 'esc' | 'ctrl_c'; cutRows: number; readonly prompt: PromptInstance<P> } | undefined;
  private readonly _escArm: EscArm;
  private _lastScan = 0;
  private readonly _dialogStops: SessionDialogStops;
  /** The user messages the screen last showed (kept when it shows none). */
  private _lastUserMessages: readonly string[] = [];
  /**
   * The screen at the last key that may have decided something with no prompt read on it: where a
   * prompt the parser did not know was answered, kept with a miss (missCheck.ts).
   */
  private _unreadKeyScreen: readonly string[] | undefined;
  private readonly _binding: SessionBinding<P>;
  private readonly _checks = new Set<Disposable>();
  private readonly _clock: RecorderClock;
  /** Keys pressed while a frame may still be drawn (keyHold.ts), and when the agent last drew. */
  private readonly _held: KeyHold<ScreenReading<P>>;
  private _lastOutputAt = -Infinity;
  private _disposed = false;

  constructor(
    private readonly _ctx: RecorderContext,
    private readonly _profile: AgentProfile<P>,
    private readonly _options: AgentRecorderOptions = {},
  ) {
    this._clock = _options.clock ?? systemClock;
    this._facts = new CallFacts(_ctx.sink, _profile, this._clock, () => screenCapture(this._unreadKeyScreen ?? _ctx.screen.snapshot().lines));
    // A new prompt is the best witness for which session file is this run's: look for it while
    // the prompt shows (once per new prompt; a deciding key also looks, see handleKey). A subagent's
    // prompt may come from a companion file not looked for yet: look for those too.
    this._prompts = new PromptTracker(this._facts, _profile, () => (this._facts.sessionFile === undefined ? this._tick(true) : this._readFiles()));
    this._binding = new SessionBinding<P>(_options.witnessSettleMs ?? WITNESS_SETTLE_MS, _ctx.debug);
    this._dialogStops = new SessionDialogStops(this._facts, _profile.dropsKeys ? (check) => this._afterKeySettled(check) : undefined, () => this._dialogShown());
    this._store.add(_profile);
    // The package's version is known before the agent draws anything: read its texts from the start.
    if (_ctx.agentVersion !== undefined) {
      _profile.setVersion(_ctx.agentVersion);
      this._facts.versionTold();
    }
    this._screen = _profile.readScreen(_ctx.screen.snapshot());
    this._held = new KeyHold(this._clock, (h) => this._judgeHeld(h));
    this._torn = new TornFrame(this._clock);
    this._escArm = new EscArm(this._clock);
    this._store.add(this._held);
    this._store.add(_ctx.screen.onDidRender(() => {
      this._lastOutputAt = this._clock.now();
      this._render();
    }));
    this._store.add(_ctx.hooks((m) => this._onHook(m)));
    this._store.add(this._clock.setInterval(() => this._tick(), SESSION_POLL_MS));
    this._store.add(toDisposable(() => {
      for (const t of this._checks) t.dispose();
      this._checks.clear();
    }));
    this._store.add(toDisposable(() => this._facts.close()));
    this._render();
  }

  get watching(): boolean {
    // Asked before each key: the session file may have opened or closed a turn since the last tick.
    this._facts.pollSessionFiles();
    const s = this._screen;
    return s.prompt !== undefined || s.menu !== undefined || s.sessionDialog !== undefined || s.working || this._turnOpen();
  }

  handleKey(key: KeyEvent): void {
    // On the key's path (it waits for this): read what the known file appended. While no file is
    // known yet, a key that may decide or cut something looks for it first (once per poll period
    // at most; only files written since the run started are candidates), so that the event it
    // makes belongs to the turn the file has already written.
    if (this._facts.sessionFile === undefined && mayDecide(key) && this._clock.now() - this._lastScan >= SESSION_POLL_MS) this._scan(true);
    this._facts.pollSessionFiles();
    this._render();
    const screen = this._screen;
    const open = this._prompts.open ?? (this._profile.redrawsInPlace ? this._torn.hidden(screen, (id) => this._facts.call(id)) : undefined);
    // A cut is taken at once: it reads the file's state, which a held key would read later.
    const cuts = this._cutTrigger(key) !== undefined && (screen.working || this._turnOpen());
    // The session's catch-up before the key could not parse all the agent wrote (a flood, xterm mid-write): wait for the model.
    if (!open && !cuts && this._ctx.screen.behind?.() === true) return this._held.holdUntil({ key, screen }, this._screenCaughtUp());
    if (!open && !cuts && (this._held.holding || (this._held.drawing(this._lastOutputAt) && !shownReading(screen)))) return this._held.hold({ key, screen });
    this._held.release();
    this._take(key, open, screen);
  }

  /** A held key: the prompt the screen showed since, if any, is the one it answered. */
  private _judgeHeld(h: HeldKey<ScreenReading<P>>): void {
    const open = this._prompts.open;
    this._take(h.key, open, open ? this._screen : h.screen);
  }

  private _take(key: KeyEvent, open: PromptInstance<P> | undefined, screen: ScreenReading<P>): void {
    if (this._cutTrigger(key) !== 'esc') this._escArm.disarm();
    if (!open && !screen.prompt && answersPrompt(key)) this._unreadKeyScreen = this._ctx.screen.snapshot().lines;
    // A later deciding key says what the user did next: an earlier quick cut is no longer waited on.
    if (answersPrompt(key)) this._cutAtDrawnApproval = undefined;
    const taken = this._judgeKey(key, open, screen);
    // Which way a deciding key went, and on what screen: what a failed scenario's log must show.
    if (answersPrompt(key)) this._ctx.debug(`key ${keyClass(key)}: ${taken} (screen: ${screenState(screen)}, turn open in file: ${String(this._turnOpen())})`);
  }

  /** What the key does, from the prompt it answers or the screen it is pressed on; says which. */
  private _judgeKey(key: KeyEvent, open: PromptInstance<P> | undefined, screen: ScreenReading<P>): string {
    if (open) {
      const decided = this._prompts.key(key, open, screen.decisionRows);
      if (decided && this._profile.dropsKeys) this._scheduleIgnoredCheck(decided);
      if (decided) return `decided the prompt (${decided.eventId})`;
      return this._cutAtApproval(key, open, screen) ? 'at a prompt approved and still drawn: a cut if the agent shows one' : 'at the prompt, decided nothing';
    }
    if (screen.prompt) return 'a decided prompt still drawn: nothing more';
    if (screen.menu) {
      this._menuKey(key, screen.menu);
      return 'at the interrupt menu';
    }
    if (screen.sessionDialog) return this._dialogStops.key(key, screen.sessionDialog);
    // A dialog rec cannot read answers the key, even while the file shows the turn open: no
    // interruption, whose call id would be unknown and which would cover the miss (missCheck.ts).
    if (screen.unreadOptionList) return 'at an option list rec cannot read: nothing';
    const cut = this._cutTrigger(key);
    if (cut && (screen.working || this._turnOpen())) {
      if (cut === 'esc' && this._profile.optionRules.escArmsInterrupt && !this._escArm.cuts(screen.interruptArmed === true)) return 'armed the interrupt: the next Esc cuts';
      this._interrupt(cut, null, 'interrupted');
      return 'an interruption';
    }
    if (key.type === 'key' && key.name === 'enter' && !key.alt) {
      this._prompts.submitted();
      return 'a message sent';
    }
    return 'nothing';
  }

  async handleExit(_exit: AgentExit, stop: AbortSignal): Promise<void> {
    const facts = this._facts;
    // The screen first: the agent may have named its session as it exited.
    this._render();
    this._held.release();
    this._tick(true);
    this._prompts.leftOpenAtExit();
    // After the agent exits its file may still get the turn's end (Codex leaves Exit and Run in
    // background to its daemon): wait only for something to reconcile, a turn still open in the
    // file or events whose file was not found yet, and only until told to stop. A session that
    // recorded nothing exits at once.
    // A file not found yet is looked for until told to stop, if anything was recorded or said: what
    // the screen showed last may only now be old enough to count (WITNESS_SETTLE_MS).
    const unmatched = () => facts.sessionFile === undefined && (facts.hasEvents() || this._lastUserMessages.length > 0);
    while (!stop.aborted && !this._disposed && (facts.turnOpenInFile || unmatched())) {
      await waitOn(this._clock, SESSION_POLL_MS, stop);
      if (stop.aborted || this._disposed) break;
      this._tick(true);
    }
    // Two sessions fitted the screen equally to the end: no call id is better than another's.
    if (facts.sessionFile === undefined && this._binding.ambiguousCandidates > 1) facts.noteSessionAmbiguous(this._binding.ambiguousCandidates);
    // The last turn's decisions, if the file did not end it (the agent exited at a prompt, or its end came late).
    facts.checkMisses();
  }

  get misses(): MissCount {
    return this._facts.missCount;
  }

  dispose(): void {
    this._disposed = true;
    this._store.dispose();
  }

  private _turnOpen(): boolean {
    return this._facts.turnOpen;
  }

  private _tick(force = false): void {
    // A timer's work that was already queued when the recorder was disposed: the store may be closed.
    if (this._disposed) return;
    // A held key came before what the files say now: it is judged first (unless it waits for the screen model).
    if (!this._held.waitingForScreen) this._held.release();
    if (this._facts.sessionFile === undefined) this._scan(force);
    this._readFiles();
  }

  /** Looks for this run's session file (once per SESSION_SCAN_MS unless forced). */
  private _scan(force: boolean): void {
    const now = this._clock.now();
    if (!force && now - this._lastScan < SESSION_SCAN_MS) {
      // Between scans the candidates are still opened: the chooser opens them itself when it scans.
      this._profile.holdCandidates?.();
      return;
    }
    this._lastScan = now;
    // The user messages last shown, not only those on screen now: an agent may clear them (at exit)
    // before its file is found.
    const refused = this._facts.prompts.filter((p) => p.decision?.type === 'rejection').map((p) => p.parsed);
    const witness = this._binding.witness(now, this._lastUserMessages, this._screen.prompt, refused);
    const bound = this._binding.bind(this._profile.chooseSessionFile(witness));
    if (bound) this._facts.followSessionFile(bound);
  }

  /** Companion files that appeared (a directory listing: never on a key's path), then what every file appended. */
  private _readFiles(): void {
    this._facts.readSessionFiles();
  }

  private _onHook(message: HookMessage): void {
    if (!this._held.waitingForScreen) this._held.release();
    for (const fact of this._profile.translateHook(message)) this._facts.apply(fact);
    // A subagent's hook may be the first sign of its transcript.
    this._readFiles();
  }

  private _render(): void {
    const snapshot = this._ctx.screen.snapshot();
    if (snapshot.seq === this._seenSeq) return;
    this._seenSeq = snapshot.seq;
    this._screen = this._profile.readScreen(snapshot);
    for (const fact of this._screen.facts ?? []) this._facts.apply(fact);
    const banner = this._screen.bannerVersion;
    if (banner !== undefined && !this._facts.versionKnown) this._facts.apply({ type: 'session', version: banner, versionWitness: 'banner' });
    if (this._screen.userMessages.length > 0) this._lastUserMessages = this._screen.userMessages;
    this._binding.screenShown(this._screen, this._clock.now());
    const answer = this._screen.answerText;
    if (answer) this._lastAnswer = { text: answer, userMessages: this._screen.userMessages.length };
    this._prompts.show(this._profile.promptMayBeOpen() ? this._screen.prompt : undefined, this._screen.userMessages.length);
    const open = this._prompts.open;
    this._torn.read(open, this._screen.decisionRows);
    if (open && this._held.holding) this._held.release();
    this._settleCutAtApproval();
    if (!this._screen.menu) this._menuExpectedHighlight = undefined;
    else if (this._menuExpectedHighlight === this._screen.menu.highlighted) this._menuExpectedHighlight = undefined;
  }

  private _scheduleIgnoredCheck(check: Decided<P>): void {
    this._afterKeySettled(() => this._checkIgnored(check));
  }

  /** Resolves once the screen model has parsed everything written so far and the recorder has read it. */
  private _screenCaughtUp(): Promise<void> {
    return Promise.resolve(this._ctx.screen.whenIdle?.()).then(() => {
      if (!this._disposed) this._render();
    });
  }

  /** Whether a dialog about the session is drawn now (the file and the screen read first); undefined once disposed. */
  private _dialogShown(): boolean | undefined {
    if (this._disposed) return undefined;
    this._tick(true);
    this._render();
    return this._screen.sessionDialog !== undefined;
  }

  /** Runs `check` once a key had time to be taken and the screen model has caught up. */
  private _afterKeySettled(check: () => void): void {
    const timer = this._clock.setTimeout(() => {
      this._checks.delete(timer);
      return Promise.resolve(this._ctx.screen.whenIdle?.()).then(check);
    }, this._options.ignoredKeySettleMs ?? IGNORED_KEY_SETTLE_MS);
    this._checks.add(timer);
  }

  /** Whether the key may cut the call just approved at `open`, still drawn (see _cutAtDrawnApproval); if so it is waited on. */
  private _cutAtApproval(key: KeyEvent, open: PromptInstance<P>, screen: ScreenReading<P>): boolean {
    if (screen.cutRows === undefined || open.decision?.type !== 'approval' || open.decision.reasks) return false;
    const trigger = this._cutTrigger(key);
    if (trigger === undefined) return false;
    this._cutAtDrawnApproval = { trigger, cutRows: screen.cutRows, prompt: open };
    return true;
  }

  /** The key as a cut of a working turn: Esc, or Ctrl+C where the agent takes it so; undefined for any other key. */
  private _cutTrigger(key: KeyEvent): 'esc' | 'ctrl_c' | undefined {
    if (key.type !== 'key') return undefined;
    if (key.name === 'esc' && !key.alt) return 'esc';
    return key.name === 'ctrl-c' && this._profile.optionRules.ctrlCInterrupts ? 'ctrl_c' : undefined;
  }

  /** On each screen: did the agent show the cut of a quick Esc at an approved prompt (an interruption), or move on to another prompt? */
  private _settleCutAtApproval(): void {
    const cut = this._cutAtDrawnApproval;
    if (!cut) return;
    const shown = this._screen.cutRows ?? 0;
    if (shown > cut.cutRows) {
      this._cutAtDrawnApproval = undefined;
      this._ctx.debug(`key ${cut.trigger} at the approved prompt: the agent showed the cut, an interruption`);
      this._interrupt(cut.trigger, null, 'interrupted');
    } else if (this._screen.prompt && this._screen.prompt.identity !== cut.prompt.parsed.identity) {
      this._cutAtDrawnApproval = undefined;
    } else {
      cut.cutRows = shown;
    }
  }

  /** Once the screen has settled after a decisive key: was the key taken? */
  private _checkIgnored(check: Decided<P>): void {
    // The check waited for the screen model; the recorder may have been disposed meanwhile.
    if (this._disposed) return;
    this._tick(true);
    this._render();
    this._prompts.retractIfIgnored(check, this._screen.decisionRows);
  }

  private _menuKey(key: KeyEvent, menu: InterruptMenu): void {
    const current = this._menuExpectedHighlight ?? menu.highlighted ?? 1;
    const delta = arrowDelta(key);
    if (delta !== 0) {
      this._menuExpectedHighlight = moveHighlight(current, delta, menu.options.length, this._profile.optionRules);
      return;
    }
    const chosen = chooseMenuOption(key, menu.options, current);
    if (!chosen?.action) return;
    this._interrupt('ctrl_c', chosen.shortLabel, chosen.action === 'detach' ? 'detached' : 'interrupted');
  }

  /** Esc while working, or a choice in the interrupt menu. */
  private _interrupt(trigger: OptionTrigger, optionLabel: string | null, how: 'interrupted' | 'detached'): void {
    const facts = this._facts;
    const running = facts.runningCall();
    // The session file may trail the screen: the last prompt, approved, whose call is not read yet
    // and whose turn the file has not ended, is the command running now.
    const last = facts.prompts.at(-1);
    const unread =
      !running && how !== 'detached' && last?.decision?.type === 'approval' && last.callId === undefined && last.turnEndsAtDecision === facts.turnEnds
        ? last
        : undefined;
    const kind = how === 'detached' ? 'detached' : running || unread ? 'tool' : 'response';
    const seen = this._lastAnswer?.userMessages === this._screen.userMessages.length ? this._lastAnswer.text : undefined;
    const partial = kind === 'response' ? this._screen.answerText || seen : undefined;
    const eventId = facts.event({
      type: 'interruption',
      kind,
      trigger,
      option_label: optionLabel,
      ...facts.callFields(running),
      ...(running ? { related_call_id: running.callId } : {}),
      partial_output: partial ?? null,
      evidence: ['screen', 'keys'],
    });
    if (how === 'detached') return;
    facts.interrupted(eventId, running, unread);
  }
}

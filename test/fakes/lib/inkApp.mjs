// @ts-check
// The turn engine shared by fake-gemini, fake-claude and fake-copilot. The real CLIs are Ink apps:
// a history on top and a live region (dialog, spinner, composer) redrawn below it. What differs
// (texts, layout, which keys do what, the session file) comes from a per-agent `profile`; Copilot's
// adds a full-screen layout, an option that is a text field, and an interrupt that takes Esc twice.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { readKeys } from './keyReader.mjs';
import { readyMarker } from './ready.mjs';
import { runCommand } from './commandRunner.mjs';
import { row } from './term.mjs';

/** Spinner / elapsed-time redraw period of both TUIs (about once a second in the samples). */
const SPINNER_TICK_MS = 1000;
/** How long "Press Ctrl+C again to exit" stays armed (Gemini and Claude both use about 1-2 s). */
const CTRL_C_EXIT_WINDOW_MS = 2000;
/** How long one Esc keeps Copilot's interrupt armed (`esc again to interrupt`, "about a second", docs/copilot.md §5). */
const ESC_ARM_WINDOW_MS = 1000;

/**
 * @typedef {{ call: any, index: number, total: number, options: Array<{ kind: string, label: string, field?: boolean }>, selected: number, amend?: string, typed?: string, resolve: (result: unknown) => void }} OpenDialog
 * @typedef {{ finish: (result: { kind: string, trigger?: string, value?: unknown }) => void, startedAt: number, call: unknown }} RunningTurn
 */

export class InkApp {
  constructor(term, { profile, scenario, cwd, initialPrompt }) {
    this._term = term;
    this._p = profile;
    this._scenario = scenario;
    this._cwd = cwd;
    this._history = [];
    this._mode = 'idle';
    this._composer = '';
    this._ctrlCArmedUntil = 0;
    this._escArmedUntil = 0;
    this._turnIndex = 0;
    this._initialPrompt = initialPrompt ?? scenario.prompt;
    /** @type {OpenDialog | undefined} */
    this._dialog = undefined;
    /** @type {RunningTurn | undefined} */
    this._busy = undefined;
    this._exit = new Promise((resolve) => (this._resolveExit = resolve));
  }

  async run() {
    this._term.onResize(() => this._render());
    this._disposeKeys = readKeys(process.stdin, (k) => this._onKey(k));
    if (this._p.screenModes) this._term.write(this._p.screenModes.enter);
    this._render();
    this._term.write(readyMarker(this._p.agent));
    if (this._initialPrompt) this._submit(this._initialPrompt);
    const code = await this._exit;
    this._disposeKeys();
    clearInterval(this._tick);
    return code;
  }

  // ---- rendering -------------------------------------------------------------------------------

  _render() {
    const width = this._term.cols;
    const ctrlCHint = Date.now() < this._ctrlCArmedUntil;
    let pane;
    if (this._mode === 'dialog') pane = this._p.dialogRows({ ...this._openDialog(), width });
    else if (this._mode === 'busy') {
      const seconds = Math.floor((Date.now() - this._runningTurn().startedAt) / 1000);
      pane = this._p.busyRows({ width, seconds, running: this._runningTurn().call, ctrlCHint, text: this._composer, streaming: this._streamText?.(), escArmed: Date.now() < this._escArmedUntil });
    } else pane = this._p.composerRows({ width, text: this._composer, ctrlCHint });
    const hist = [...this._p.headerRows(width, this._cwd), ...this._history.flatMap((cell) => cell(width))];
    const height = this._term.rows;
    // A full-screen TUI (Copilot) keeps its live region at the bottom, blank rows between.
    const gap = this._p.fullScreen ? Math.max(0, height - hist.length - pane.length) : 0;
    const all = [...hist, ...Array.from({ length: gap }, () => row('')), ...pane];
    const shown = all.slice(Math.max(0, all.length - height));
    const paneTop = shown.length - pane.length;
    const ci = this._mode === 'dialog' ? -1 : pane.findIndex((r) => r.cursor);
    this._term.render(shown, ci >= 0 ? { row: paneTop + ci, col: pane[ci].cursor } : undefined);
  }

  /** The open dialog: there is one for as long as the mode is 'dialog'. */
  _openDialog() {
    return /** @type {OpenDialog} */ (this._dialog);
  }

  /** The running turn: there is one for as long as the mode is 'busy'. */
  _runningTurn() {
    return /** @type {RunningTurn} */ (this._busy);
  }

  // ---- keys ------------------------------------------------------------------------------------

  _onKey(key) {
    if (this._mode === 'dialog') return this._onDialogKey(key);
    if (this._mode === 'busy') {
      if (key.name === 'esc' && this._p.escEscInterrupts && Date.now() >= this._escArmedUntil) return this._armEsc();
      if (key.name === 'esc' || key.name === 'ctrl-c') {
        if (key.name === 'ctrl-c' && this._p.ctrlCArmsExit !== false) this._armCtrlC();
        return this._runningTurn().finish({ kind: 'interrupt', trigger: key.name === 'esc' ? 'esc' : 'ctrl_c' });
      }
      return this._onComposerKey(key, false);
    }
    if (this._mode === 'idle') return this._onComposerKey(key, true);
    // 'pending': between states; the next state is set before the next stdin read.
  }

  _onDialogKey(key) {
    const d = this._openDialog();
    if (d.options[d.selected].field && this._onFieldKey(d, key)) return undefined;
    if (d.amend !== undefined) {
      if (key.name === 'char') d.amend += key.char;
      else if (key.name === 'backspace') d.amend = [...d.amend].slice(0, -1).join('');
      else if (key.name === 'enter') return this._choose(d.selected, 'enter', d.amend.trim() || undefined);
      else if (key.name === 'esc') return this._choose(d.options.findIndex((o) => o.kind === 'deny'), 'esc');
      return this._render();
    }
    const n = d.options.length;
    if (key.name === 'up' || key.name === 'down') {
      const step = key.name === 'up' ? -1 : 1;
      d.selected = this._p.selectionWraps === false ? Math.min(n - 1, Math.max(0, d.selected + step)) : (d.selected + step + n) % n;
      return this._render();
    }
    if (key.name === 'enter') return this._choose(d.selected, 'enter');
    if (key.name === 'esc') return this._choose(d.options.findIndex((o) => o.kind === 'deny'), 'esc');
    if (key.name === 'ctrl-c') {
      if (this._p.ctrlCAtDialog === 'ignore') return undefined; // Claude ignores Ctrl+C at a dialog
      if (this._p.ctrlCArmsExit !== false) this._armCtrlC();
      return this._finishDialog({ kind: 'ctrl_c' });
    }
    if (key.name === 'tab' && this._p.tabAmend) {
      d.amend = '';
      return this._render();
    }
    if (key.name === 'char' && /^[1-9]$/.test(key.char) && Number(key.char) <= n) {
      const index = Number(key.char) - 1;
      if (!d.options[index].field) return this._choose(index, 'digit');
      // A text field's digit only highlights it: the answer is what gets typed there.
      d.selected = index;
      return this._render();
    }
    // Other keys: ignored by the dialog.
  }

  /**
   * Keys on a highlighted option that is a text field (Copilot's "No, and tell Copilot what to do
   * differently"): text goes into it, Enter sends it (and does nothing while it is empty). A digit
   * on the empty field still picks an option. Returns false for the keys the dialog handles itself
   * (arrows, Esc, Ctrl+C).
   */
  _onFieldKey(d, key) {
    const typed = d.typed ?? '';
    if (key.name === 'char' && !(typed === '' && /^[1-9]$/.test(key.char))) d.typed = typed + key.char;
    else if (key.name === 'backspace') d.typed = [...typed].slice(0, -1).join('');
    else if (key.name === 'enter') {
      if (typed.trim()) this._choose(d.selected, 'enter', typed.trim());
      return true;
    } else return false;
    this._render();
    return true;
  }

  _choose(index, trigger, amendText) {
    const option = this._openDialog().options[index];
    this._finishDialog({ kind: option.kind, option, trigger, amendText });
  }

  _finishDialog(result) {
    const resolve = this._openDialog().resolve;
    this._dialog = undefined;
    this._mode = 'pending';
    resolve(result);
  }

  /** Copilot: one Esc while a turn works only arms the interrupt; the footer asks for the second. */
  _armEsc() {
    this._escArmedUntil = Date.now() + ESC_ARM_WINDOW_MS;
    setTimeout(() => this._render(), ESC_ARM_WINDOW_MS + 10).unref();
    this._render();
  }

  _armCtrlC() {
    this._ctrlCArmedUntil = Date.now() + CTRL_C_EXIT_WINDOW_MS;
    setTimeout(() => this._render(), CTRL_C_EXIT_WINDOW_MS + 10).unref();
  }

  _onComposerKey(key, canSubmit) {
    if (key.name === 'char') this._composer += key.char;
    else if (key.name === 'backspace') this._composer = [...this._composer].slice(0, -1).join('');
    else if (key.name === 'enter' && canSubmit) {
      const text = this._composer.trim();
      this._composer = '';
      if (text === '/quit' || text === '/exit') return this._quit();
      if (text) return this._submit(text);
    } else if ((key.name === 'ctrl-c' || key.name === 'ctrl-d') && canSubmit) {
      if (this._composer && key.name === 'ctrl-c') this._composer = '';
      else if (Date.now() < this._ctrlCArmedUntil) return this._quit();
      else this._armCtrlC();
    }
    this._render();
  }

  // ---- turns -----------------------------------------------------------------------------------

  _submit(text) {
    this._history.push(...this._p.cells.user(text));
    this._mode = 'pending';
    this._render();
    this._runTurn(text).catch((err) => {
      this._term.restore();
      process.stderr.write(`fake-${this._p.agent}: turn failed: ${err?.stack ?? err}\n`);
      this._resolveExit(70);
    });
  }

  async _runTurn(text) {
    const s = this._p.session;
    const turn = s.userPrompt(text);
    const resp = this._scenario.turns[this._turnIndex++] ?? { say: this._scenario.followUp };
    if (resp.calls?.length) return this._runCalls(turn, resp);
    if (resp.stream) return this._runStream(turn, resp.stream);
    return this._answer(turn, resp.say ?? this._scenario.followUp);
  }

  _answer(turn, text) {
    this._p.session.answer(turn, text);
    this._history.push(...this._p.cells.answer(text));
    this._toIdle();
  }

  _toIdle() {
    clearInterval(this._tick);
    this._busy = undefined;
    this._mode = 'idle';
    this._render();
  }

  _ask(call, index, total) {
    return new Promise((resolve) => {
      this._dialog = { call, index, total, options: this._p.options(call, this._cwd), selected: 0, resolve };
      this._mode = 'dialog';
      this._render();
    });
  }

  _waitBusy(work, call) {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (r) => {
        if (!settled) {
          settled = true;
          resolve(r);
        }
      };
      this._busy = { finish, startedAt: Date.now(), call };
      this._escArmedUntil = 0;
      this._mode = 'busy';
      clearInterval(this._tick);
      this._tick = setInterval(() => this._render(), SPINNER_TICK_MS);
      this._render();
      work.then((value) => finish({ kind: 'done', value }));
    });
  }

  async _runCalls(turn, resp) {
    const s = this._p.session;
    const calls = resp.calls.map((c) => ({ ...c }));
    const report = (call) => {
      call.reported = true;
      s.callResolved(turn, call);
    };
    s.proposed(turn, calls, resp.preface);
    if (resp.preface && this._p.showsPreface) this._history.push(...this._p.cells.answer(resp.preface));
    // Rows that follow each call's state from proposed to resolved (Copilot redraws them in place).
    if (this._p.cells.proposed) this._history.push(...this._p.cells.proposed(calls));
    let stopped = false;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      if (stopped) {
        call.outcome = { status: 'sibling' };
        continue;
      }
      const res = await this._ask(call, i, calls.length);
      s.decided?.(turn, call, res);
      if (res.kind === 'deny' || res.kind === 'ctrl_c') {
        if (res.kind === 'deny' && res.amendText && this._p.reasonContinuesTurn) {
          call.outcome = { status: 'reason', reason: res.amendText };
          report(call);
          this._history.push(...this._p.cells.resolved(call));
          continue;
        }
        call.outcome = { status: res.kind === 'ctrl_c' ? 'ctrlc' : 'denied' };
        stopped = true;
        continue;
      }
      call.outcome = await this._execute(call, res);
      if (call.outcome.status === 'interrupted') stopped = true;
      report(call);
      this._history.push(...this._p.cells.resolved(call));
    }
    if (stopped) {
      for (const c of calls) if (!c.reported) report(c);
      s.batchResolved(turn, calls, { aborted: true });
      this._history.push(...this._p.cells.aborted(calls));
      return this._toIdle();
    }
    s.batchResolved(turn, calls, { aborted: false });
    return this._answer(turn, `MOCK FINAL: received ${calls.length} tool result(s)`);
  }

  /** Runs an approved call; Esc or Ctrl+C while it runs interrupts it. */
  async _execute(call, res) {
    if (call.tool !== 'shell') {
      mkdirSync(dirname(call.path), { recursive: true });
      if (call.tool === 'write') writeFileSync(call.path, call.content ?? '');
      else {
        const before = existsSync(call.path) ? readFileSync(call.path, 'utf8') : '';
        writeFileSync(call.path, before.replace(call.oldString ?? '', call.newString ?? ''));
      }
      return { status: 'success', output: `Successfully wrote to ${call.path}`, option: res.option, feedback: res.amendText };
    }
    const run = runCommand(call.command, this._cwd);
    const outcome = await this._waitBusy(run.done, call);
    if (outcome.kind === 'interrupt') {
      run.kill();
      return { status: 'interrupted', trigger: outcome.trigger, option: res.option };
    }
    return { status: 'success', output: outcome.value.output, exitCode: outcome.value.exitCode, option: res.option, feedback: res.amendText };
  }

  async _runStream(turn, stream) {
    const words = Array.from({ length: stream.words }, (_, i) => `word${i}`);
    let shown = 0;
    let timer;
    const done = new Promise((resolve) => {
      timer = setInterval(() => {
        shown++;
        if (this._p.rendersStreamingText) this._render();
        if (shown >= words.length) {
          clearInterval(timer);
          resolve(undefined);
        }
      }, stream.intervalMs);
    });
    this._streamText = () => words.slice(0, shown).join(' ');
    const outcome = await this._waitBusy(done, undefined);
    clearInterval(timer);
    this._streamText = undefined;
    if (outcome.kind === 'done') return this._answer(turn, words.join(' '));
    this._p.session.streamCut(turn, words.slice(0, shown).join(' ') + ' ', outcome.trigger);
    this._history.push(...this._p.cells.streamCut(words.slice(0, shown).join(' ')));
    return this._toIdle();
  }

  _quit() {
    clearInterval(this._tick);
    const lines = this._p.exitLines();
    this._p.session.exit();
    if (this._p.screenModes) this._term.write(this._p.screenModes.leave);
    this._term.write('\x1b[?25h\r\n' + lines.join('\r\n') + '\r\n');
    this._resolveExit(this._scenario.exitCode);
  }
}

// @ts-check
// fake-codex's TUI state machine: composer, approval prompts (one call at a time, in call order),
// running commands with "Working", the Ctrl+C task menu, streamed answers; every step also written
// to the rollout as Codex 0.169.0 writes it.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { readKeys } from './keyReader.mjs';
import { SGR } from './term.mjs';
import { readyMarker } from './ready.mjs';
import { runCommand } from './commandRunner.mjs';
import { CodexRollout } from './codexRollout.mjs';
import * as S from './codexStrings.mjs';
import * as V from './codexView.mjs';

/** Redraw period of the "Working (Ns …)" timer: Codex updates it about once a second. */
const WORKING_TICK_MS = 1000;
/** How long the "again to quit" hint stays armed after a first Ctrl+C at an idle composer. */
const CTRL_C_QUIT_WINDOW_MS = 2000;

const hhmm = () => new Date().toTimeString().slice(0, 5);

/**
 * @typedef {{ label: string, hotkey: string, decision?: string }} PromptOption
 * @typedef {{ call: any, options: PromptOption[], selected: number, resolve: (decision: { option: PromptOption | undefined, trigger: string }) => void }} OpenPrompt
 * @typedef {{ finish: (result: { kind: string, trigger?: string, value?: unknown }) => void, showWorking: boolean, startedAt: number }} RunningTurn
 */

export class CodexApp {
  constructor(term, { scenario, cwd, codexHome, initialPrompt, entryScript }) {
    this._term = term;
    this._scenario = scenario;
    this._cwd = cwd;
    this._entryScript = entryScript;
    this._rollout = new CodexRollout({ codexHome, cwd, model: scenario.model });
    this._history = [V.cells.header(cwd)];
    this._active = [];
    this._mode = 'idle';
    this._composer = '';
    this._ctrlCArmedUntil = 0;
    this._turnIndex = 0;
    this._initialPrompt = initialPrompt ?? scenario.prompt;
    /** @type {OpenPrompt | undefined} */
    this._prompt = undefined;
    /** @type {RunningTurn | undefined} */
    this._busy = undefined;
    this._exit = new Promise((resolve) => (this._resolveExit = resolve));
  }

  /** Runs until the user quits; resolves to the exit code. */
  async run() {
    this._term.onResize(() => this._render());
    this._disposeKeys = readKeys(process.stdin, (key) => this._onKey(key));
    this._render();
    this._term.write(readyMarker('codex'));
    if (this._initialPrompt) this._submit(this._initialPrompt);
    const code = await this._exit;
    this._disposeKeys();
    clearInterval(this._tick);
    return code;
  }

  /** The open approval prompt: there is one for as long as the mode is 'prompt'. */
  _openPrompt() {
    return /** @type {OpenPrompt} */ (this._prompt);
  }

  /** The running turn: there is one for as long as the mode is 'busy' (its menu included). */
  _runningTurn() {
    return /** @type {RunningTurn} */ (this._busy);
  }

  // ---- rendering -------------------------------------------------------------------------------

  _render() {
    const width = this._term.cols;
    const opts = { width, model: this._scenario.model, cwd: this._cwd, text: this._composer, ctrlCHint: Date.now() < this._ctrlCArmedUntil };
    let pane;
    if (this._mode === 'prompt') {
      const p = this._openPrompt();
      pane = (p.call.kind === 'patch' ? V.patchPromptPane : V.execPromptPane)({ width, call: p.call, options: p.options, selected: p.selected });
    } else if (this._mode === 'menu') {
      pane = V.taskMenuPane({ width, selected: this._menuSelected });
    } else if (this._mode === 'busy' && this._runningTurn().showWorking) {
      pane = V.workingPane({ ...opts, seconds: Math.floor((Date.now() - this._runningTurn().startedAt) / 1000) });
    } else {
      pane = V.composerPane(opts);
    }
    const historyRows = V.renderCells([...this._history, ...this._active], width);
    const frame = V.composeFrame(historyRows, pane, this._term.rows);
    const cursor = this._mode === 'idle' || (this._mode === 'busy' && this._runningTurn().showWorking)
      ? this._composerCursor(frame, pane)
      : undefined;
    this._term.render(frame.rows, cursor);
  }

  _composerCursor(frame, pane) {
    const idx = pane.findIndex((r) => r.text.startsWith(S.composer.marker));
    if (idx < 0) return undefined;
    const col = this._composer ? Math.min(this._term.cols - 1, 2 + [...this._composer].length) : 2;
    return { row: frame.paneTop + idx, col };
  }

  // ---- keys ------------------------------------------------------------------------------------

  _onKey(key) {
    switch (this._mode) {
      case 'prompt':
        return this._onPromptKey(key);
      case 'menu':
        return this._onMenuKey(key);
      case 'busy-pending':
        return undefined; // between a decision and the next state: nothing is listening yet
      case 'busy':
        if (key.name === 'esc') return this._runningTurn().finish({ kind: 'interrupt', trigger: 'esc' });
        if (key.name === 'ctrl-c') {
          this._mode = 'menu';
          this._menuSelected = 0;
          return this._render();
        }
        return this._onComposerKey(key, false);
      default:
        return this._onComposerKey(key, true);
    }
  }

  _onPromptKey(key) {
    const p = this._openPrompt();
    const byHotkey = (hk) => p.options.findIndex((o) => o.hotkey === hk);
    if (key.name === 'up' || key.name === 'down') {
      const n = p.options.length;
      p.selected = (p.selected + (key.name === 'up' ? n - 1 : 1)) % n;
      return this._render();
    }
    if (key.name === 'enter') return this._decide(p.selected, 'enter');
    if (key.name === 'esc') return this._decide(byHotkey('esc'), 'esc');
    if (key.name === 'ctrl-c') return this._decide(byHotkey('esc'), 'ctrl_c');
    if (key.name === 'char' && !key.alt) {
      const c = key.char.toLowerCase();
      if (/^[1-9]$/.test(c) && Number(c) <= p.options.length) return this._decide(Number(c) - 1, 'digit');
      const i = byHotkey(c);
      if (i >= 0) return this._decide(i, 'letter');
      if (S.extraDenyKeys.includes(c)) return this._decide(byHotkey('esc'), 'letter');
    }
    // Any other key: Codex ignores it while the approval overlay is open.
  }

  _decide(index, trigger) {
    const p = this._openPrompt();
    const option = p.options[index];
    this._prompt = undefined;
    this._mode = 'busy-pending';
    p.resolve({ option, trigger });
  }

  _onMenuKey(key) {
    const n = S.taskMenu.options.length;
    if (key.name === 'up' || key.name === 'down') {
      this._menuSelected = (this._menuSelected + (key.name === 'up' ? n - 1 : 1)) % n;
      return this._render();
    }
    if (key.name === 'esc') {
      this._mode = 'busy';
      return this._render();
    }
    let choice;
    if (key.name === 'enter') choice = this._menuSelected;
    else if (key.name === 'char' && /^[1-3]$/.test(key.char)) choice = Number(key.char) - 1;
    if (choice === undefined) return;
    const action = S.taskMenu.options[choice].action;
    this._mode = 'busy';
    this._runningTurn().finish(action === 'cancel' ? { kind: 'interrupt', trigger: 'ctrl_c' } : { kind: action });
  }

  _onComposerKey(key, canSubmit) {
    if (key.name === 'char') {
      this._composer += key.char;
    } else if (key.name === 'backspace') {
      this._composer = [...this._composer].slice(0, -1).join('');
    } else if (key.name === 'enter' && canSubmit) {
      const text = this._composer.trim();
      this._composer = '';
      if (text === '/quit' || text === '/exit') return this._quit();
      if (text) return this._submit(text);
    } else if (key.name === 'ctrl-c' && canSubmit) {
      if (this._composer) this._composer = '';
      else if (Date.now() < this._ctrlCArmedUntil) return this._quit();
      else {
        this._ctrlCArmedUntil = Date.now() + CTRL_C_QUIT_WINDOW_MS;
        setTimeout(() => this._render(), CTRL_C_QUIT_WINDOW_MS + 10).unref();
      }
    } else if (key.name === 'ctrl-d' && canSubmit && !this._composer) {
      return this._quit();
    }
    this._render();
  }

  // ---- turns -----------------------------------------------------------------------------------

  _submit(text) {
    this._history.push(V.cells.user(text));
    this._mode = 'busy-pending';
    this._render();
    this._runTurn(text).catch((err) => {
      this._term.restore();
      process.stderr.write(`fake-codex: turn failed: ${err?.stack ?? err}\n`);
      this._resolveExit(70);
    });
  }

  async _runTurn(text) {
    const turn = this._rollout.startTurn(text);
    const response = this._scenario.turns[this._turnIndex++] ?? { say: this._scenario.followUp };
    if (response.calls?.length) await this._runCalls(turn, response);
    else if (response.stream) await this._runStream(turn, response.stream);
    else this._finishWithAnswer(turn, response.say ?? this._scenario.followUp);
  }

  _finishWithAnswer(turn, text) {
    const r = this._rollout;
    r.agentMessage(turn, text);
    r.tokenUsage(turn);
    r.tokenCount();
    r.taskComplete(turn, text);
    this._history.push(V.cells.line(`${S.history.agentBullet}${text}`), V.cells.line(S.history.workedFor((Date.now() - turn.startedAt) / 1000, hhmm()).trim(), SGR.dim));
    this._toIdle();
  }

  _toIdle() {
    this._mode = 'idle';
    this._busy = undefined;
    clearInterval(this._tick);
    this._render();
  }

  _ask(call) {
    const options = call.kind === 'patch' ? S.patchPrompt.options() : S.execPrompt.options(call.prefix);
    return new Promise((resolve) => {
      this._prompt = { call, options, selected: 0, resolve };
      this._mode = 'prompt';
      this._render();
    });
  }

  /** Waits for `work` (a promise) while "busy"; Esc / the task menu can cut it short. */
  _waitBusy(work, { showWorking, startedAt }) {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result) => {
        if (settled) return;
        settled = true;
        resolve(result);
      };
      this._busy = { finish, showWorking, startedAt };
      if (this._mode !== 'menu') this._mode = 'busy';
      clearInterval(this._tick);
      if (showWorking) this._tick = setInterval(() => this._render(), WORKING_TICK_MS);
      this._render();
      work.then((value) => finish({ kind: 'done', value }));
    });
  }

  async _runCalls(turn, response) {
    const r = this._rollout;
    const batch = response.calls.map((c) => {
      const call = { ...c, prefix: c.prefix ?? (c.cmd ?? '').split(';')[0].trim() };
      const args = call.kind === 'patch'
        ? { cmd: S.rollout.patchCommand(call.path, call.content ?? ''), yield_time_ms: S.rollout.yieldTimeMs }
        : { cmd: call.cmd, yield_time_ms: S.rollout.yieldTimeMs, sandbox_permissions: S.rollout.sandboxPermissions, justification: call.justification };
      call.callId = r.functionCall(turn, args, c.callId);
      call.proposedAt = Date.now();
      return call;
    });
    r.tokenUsage(turn);
    for (const call of batch) {
      call.cell = call.kind === 'patch' ? V.cells.patch(basename(call.path), call.content ?? '') : V.cells.running(call.cmd);
      this._active.push(call.cell);
    }
    for (const call of batch) {
      const { option, trigger } = await this._ask(call);
      call.trigger = trigger;
      if (option.decision === 'abort') {
        if (call.kind === 'exec') this._history.push(V.cells.line(S.history.canceled(call.cmd)));
        return this._abortBatch(turn, batch, { exitAfter: false });
      }
      if (call.kind === 'exec') {
        const line = option.scope === 'once' ? S.history.approvedOnce(call.cmd) : S.history.approvedAlways(call.prefix);
        this._history.push(V.cells.line(line));
        call.run = runCommand(call.cmd, this._cwd);
        call.run.done.then(() => (call.finished = true));
        call.startedAt = Date.now();
      } else {
        call.startedAt = Date.now();
        mkdirSync(dirname(call.path), { recursive: true });
        writeFileSync(call.path, call.content ?? '');
        call.run = { done: Promise.resolve({ exitCode: 0, output: S.rollout.patchStdout(call.path) }) };
      }
      this._render();
    }
    const all = Promise.all(batch.map((c) => c.run.done));
    const outcome = await this._waitBusy(all, { showWorking: true, startedAt: turn.startedAt });
    if (outcome.kind === 'interrupt') return this._abortBatch(turn, batch, { exitAfter: false });
    if (outcome.kind === 'exit') return this._abortBatch(turn, batch, { exitAfter: true });
    if (outcome.kind === 'background') return this._detachToBackground(turn, { kind: 'calls', calls: batch });
    const outputs = [];
    batch.forEach((call, i) => {
      const res = outcome.value[i];
      let output;
      if (call.kind === 'patch') {
        r.fileChangeCompleted(turn, { callId: call.callId, path: call.path, content: call.content ?? '', startedAtMs: call.startedAt });
        output = S.rollout.patchOutput(call.path);
      } else {
        r.commandCompleted(turn, { callId: call.callId, cmd: call.cmd, pid: call.run.pid, output: res.output, exitCode: res.exitCode, startedAtMs: call.startedAt, durationMs: Date.now() - call.startedAt });
        output = S.rollout.execOutput({ chunkId: call.callId.slice(-6), exitCode: res.exitCode, output: res.output });
        this._replaceActive(call.cell, V.cells.finished(S.history.ran(call.cmd), res.output));
      }
      r.functionCallOutput(turn, call.callId, output);
      outputs.push({ callId: call.callId, output });
    });
    for (const call of batch) this._replaceActive(call.cell, call.cell);
    r.tokenCount();
    this._finishWithAnswer(turn, response.final ?? S.mockAnswers.final(outputs));
  }

  /** Moves an active cell into history, replaced by `cell`. */
  _replaceActive(activeCell, cell) {
    const i = this._active.indexOf(activeCell);
    if (i < 0) return;
    this._active.splice(i, 1);
    this._history.push(cell);
  }

  /** Denial or interruption: every call of the batch gets "aborted by user", then turn_aborted. */
  _abortBatch(turn, batch, { exitAfter }) {
    const r = this._rollout;
    for (const call of batch) call.run?.kill?.();
    for (const call of batch) r.functionCallOutput(turn, call.callId, S.rollout.abortedByUser((Date.now() - call.proposedAt) / 1000));
    r.tokenCount();
    r.turnAborted(turn);
    if (exitAfter) return this._exitWith([S.exitTexts.stopped, S.exitTexts.reconnect, S.exitTexts.resume(r.sessionId)], 0);
    for (const call of batch) {
      if (!this._active.includes(call.cell)) continue;
      // A call that already ran keeps its "Running" line, as on the real screen (parallel sample).
      if (call.kind === 'exec' && !call.finished) this._replaceActive(call.cell, V.cells.finished(S.history.exited(1, call.cmd), ''));
      else this._replaceActive(call.cell, call.cell);
    }
    this._history.push(V.cells.line(S.history.interrupted, SGR.red));
    this._toIdle();
  }

  async _runStream(turn, stream) {
    const words = stream.text ? stream.text.split(' ') : Array.from({ length: stream.words }, (_, i) => `word${i}`);
    let shown = 0;
    const cell = V.cells.agent(() => words.slice(0, shown).join(' '));
    let timer;
    const done = new Promise((resolve) => {
      timer = setInterval(() => {
        shown++;
        this._render();
        if (shown >= words.length) {
          clearInterval(timer);
          resolve(undefined);
        }
      }, stream.intervalMs);
    });
    this._active.push(cell);
    const outcome = await this._waitBusy(done, { showWorking: false, startedAt: turn.startedAt });
    clearInterval(timer);
    const r = this._rollout;
    if (outcome.kind === 'done') {
      this._replaceActive(cell, cell);
      return this._finishWithAnswer(turn, words.join(' '));
    }
    if (outcome.kind === 'background') {
      return this._detachToBackground(turn, { kind: 'stream', text: words.join(' '), remainingMs: (words.length - shown) * stream.intervalMs });
    }
    r.tokenCount(false);
    r.turnAborted(turn);
    if (outcome.kind === 'exit') return this._exitWith([S.exitTexts.stopped, S.exitTexts.reconnect, S.exitTexts.resume(r.sessionId)], 0);
    this._replaceActive(cell, cell);
    this._history.push(V.cells.line(S.history.interrupted, SGR.red));
    this._toIdle();
  }

  /** "Run in background": the TUI exits; a detached finisher completes the turn in the rollout. */
  _detachToBackground(turn, work) {
    const job = { rollout: this._rollout.toState(), turn, work: work.kind === 'calls'
      ? { kind: 'calls', calls: work.calls.map((c) => ({ callId: c.callId, kind: c.kind, cmd: c.cmd, path: c.path, content: c.content, statusFile: c.run?.statusFile, outputFile: c.run?.outputFile, startedAt: c.startedAt })) }
      : work };
    for (const c of work.calls ?? []) c.run?.detach?.();
    const child = spawn(process.execPath, [this._entryScript, '--finish-background', JSON.stringify(job)], { detached: true, stdio: 'ignore' });
    child.unref();
    const r = this._rollout;
    return this._exitWith([S.exitTexts.background, S.exitTexts.reconnect, S.exitTexts.resume(r.sessionId), S.exitTexts.stopHint], 0);
  }

  _exitWith(lines, code) {
    clearInterval(this._tick);
    this._term.clear();
    this._term.write(lines.join('\r\n') + '\r\n');
    this._resolveExit(code);
  }

  _quit() {
    this._exitWith([S.exitTexts.continueSession(this._rollout.sessionId)], this._scenario.exitCode);
  }
}

// @ts-check
// Writes a GitHub Copilot CLI 1.0.102 session ($COPILOT_HOME/session-state/<uuid>/events.jsonl,
// COPILOT_HOME defaulting to ~/.copilot) in the shapes of test/fixtures/copilot/1.0.102/recorded/
// *.events.jsonl: one `{type, data, id, timestamp, parentId}` per line, each line's parentId the id
// of the line before. The folder and its `inuse.<pid>.lock` exist from the start; the file appears
// with the first prompt, its session.start stamped with the start (docs/copilot.md §1), which is
// what rec's session locator keys on.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { hex } from './ids.mjs';
import { appendJsonLine } from './jsonl.mjs';
import { AGENT_VERSION, MODEL, events as E } from './copilotStrings.mjs';
import { commandWords, rememberedIdentifier } from './copilotProfile.mjs';

/** Statuses of calls whose prompt was still open when the turn was stopped: each gets "Session aborted". */
const CANCELLED = new Set(['denied', 'ctrlc', 'sibling']);

export class CopilotSession {
  /** @param {{ cwd: string, sessionId?: string, env?: NodeJS.ProcessEnv }} opts */
  constructor({ cwd, sessionId = randomUUID(), env = process.env }) {
    this.cwd = cwd;
    this.sessionId = sessionId;
    this.startedAt = new Date();
    const home = env.COPILOT_HOME || join(env.HOME || homedir(), '.copilot');
    this.dir = join(home, 'session-state', this.sessionId);
    this.path = join(this.dir, 'events.jsonl');
    this._lock = join(this.dir, `inuse.${process.pid}.lock`);
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(this._lock, String(process.pid));
    this._parent = null;
    this._shells = 0;
    this.started = false;
  }

  /** Appends one line; `at` stamps it with another time than now (session.start, written late). */
  _write(type, data, at = new Date()) {
    const id = randomUUID();
    appendJsonLine(this.path, { type, data, id, timestamp: at.toISOString(), parentId: this._parent });
    this._parent = id;
  }

  _start() {
    this.started = true;
    const at = this.startedAt;
    this._write('session.start', {
      sessionId: this.sessionId, version: 1, producer: 'copilot-agent', copilotVersion: AGENT_VERSION, startTime: at.toISOString(),
      selectedModel: MODEL, contextTier: null, context: { cwd: this.cwd }, alreadyInUse: false, remoteSteerable: false,
    }, at);
    this._write('session.model_change', { source: 'startup', contextTier: null, newModel: MODEL, previousModel: MODEL, reasoningEffort: null }, at);
  }

  userPrompt(text) {
    if (!this.started) this._start();
    const now = new Date();
    const turn = { messageId: randomUUID(), interactionId: randomUUID(), modelCalls: 0, open: false, startedAt: Date.now() };
    this._write('user.message', {
      content: text, transformedContent: E.datetime(now.toISOString()) + text, messageId: turn.messageId,
      supportedNativeDocumentMimeTypes: [], delivery: 'idle', interactionId: turn.interactionId, turnId: '0',
    }, now);
    this._turnStart(turn);
    return turn;
  }

  /** One model call inside the user's turn: turn ids "0", "1", … counted anew for every prompt (§5). */
  _turnStart(turn) {
    turn.turnId = String(turn.modelCalls++);
    turn.open = true;
    this._write('assistant.turn_start', { turnId: turn.turnId, interactionId: turn.interactionId });
  }

  _turnEnd(turn) {
    if (!turn.open) return;
    turn.open = false;
    this._write('assistant.turn_end', { turnId: turn.turnId });
  }

  _message(turn, content, toolRequests) {
    this._write('assistant.message', {
      messageId: randomUUID(), originatingMessageId: turn.messageId, model: MODEL, content, toolRequests,
      interactionId: turn.interactionId, turnId: turn.turnId, rte: false, apiCallId: `msg_${hex(24)}`,
    });
  }

  /** The calls of one message: all their starts, then all their prompts, before the first is drawn (§3, §4). */
  proposed(turn, calls, preface) {
    for (const c of calls) {
      c.id ??= `toolu_01${hex(22)}`;
      c.args = argumentsOf(c);
    }
    this._message(turn, preface ?? '', calls.map((c) => ({
      toolCallId: c.id, name: E.toolNames[c.tool], arguments: c.args, type: 'function',
      intentionSummary: c.tool === 'shell' ? (c.description ?? '') : E.intention[c.tool](c.path), toolTitle: E.toolTitles[c.tool],
    })));
    for (const c of calls) {
      const shellToolInfo = c.tool === 'shell' ? { shellToolInfo: { possiblePaths: [], hasWriteFileRedirection: />/.test(c.command) } } : {};
      this._write('tool.execution_start', { toolCallId: c.id, toolName: E.toolNames[c.tool], arguments: c.args, turnId: turn.turnId, model: MODEL, toolTitle: E.toolTitles[c.tool], ...shellToolInfo });
    }
    for (const c of calls) {
      c.requestId = randomUUID();
      const request = this._request(c);
      this._write('permission.requested', {
        requestId: c.requestId, permissionRequest: request, promptRequest: promptRequestOf(c, request, this.sessionId),
        agentMode: 'interactive', permissionMode: 'manual', ownerSessionId: this.sessionId,
      });
    }
  }

  /** `permissionRequest` of a shell or write prompt, trimmed to the fields rec and the recordings share. */
  _request(c) {
    if (c.tool === 'shell') {
      return {
        kind: 'shell', toolCallId: c.id, fullCommandText: c.command, shellType: 'bash', intention: c.description ?? '',
        commands: commandWords(c.command).map((w) => ({ ...w, allowMatchIdentifier: null })),
        possiblePaths: [], canOfferSessionApproval: true, hasWriteFileRedirection: />/.test(c.command), possibleUrls: [],
      };
    }
    const before = c.tool === 'edit' && existsSync(c.path) ? readFileSync(c.path, 'utf8') : undefined;
    const after = c.tool === 'write' ? (c.content ?? '') : (before ?? '').replace(c.oldString ?? '', c.newString ?? '');
    return {
      kind: 'write', toolCallId: c.id, intention: E.requestIntention[c.tool], fileName: c.path, newFileContents: after,
      fileEdits: [{ ...(before !== undefined ? { before: { path: c.path, content: before } } : {}), after: { path: c.path, content: after } }],
      canOfferSessionApproval: true,
    };
  }

  /** The person's answer, written at once (before the call runs): approved, or refused with feedback. */
  decided(turn, call, res) {
    if (res.kind === 'approve') {
      const result = res.option?.scope === 'always'
        ? { kind: 'approved-for-location', approval: call.tool === 'shell' ? { kind: 'commands', commandIdentifiers: [rememberedIdentifier(call.command)] } : { kind: 'write' }, locationKey: this.cwd }
        : { kind: 'approved' };
      this._completed(call, result, true);
    } else if (res.kind === 'deny' && res.amendText) {
      this._completed(call, { kind: 'denied-interactively-by-user', feedback: res.amendText }, true);
    }
    // Esc and Ctrl+C: every pending prompt is cancelled together, in batchResolved.
  }

  _completed(call, result, byPerson) {
    this._write('permission.completed', { requestId: call.requestId, toolCallId: call.id, result, ...(byPerson ? { decisionSource: 'human_response' } : {}) });
  }

  /** A call's outcome: it ran, or was refused with a reason. Cut and cancelled calls get no completion (§3, §5). */
  callResolved(turn, call) {
    const o = call.outcome;
    const base = { toolCallId: call.id, model: MODEL, interactionId: turn.interactionId, turnId: turn.turnId, rte: false };
    if (o.status === 'success') {
      const result = call.tool === 'shell'
        ? { content: E.shellResult(o.output ?? '', this._shells++, o.exitCode ?? 0) }
        : { content: call.tool === 'write' ? E.created(call.path, [...(call.content ?? '')].length) : E.edited(call.path) };
      const shell = call.tool === 'shell' ? { shellExecution: { exitCode: o.exitCode ?? 0 } } : {};
      const edits = call.tool === 'shell' ? {} : { fileEdits: [{ path: call.path, kind: call.tool === 'write' ? 'create' : 'edit' }] };
      // A command that exits non-zero still succeeded as a tool call (the curl of `url-approve`).
      this._write('tool.execution_complete', { ...base, ...shell, ...edits, success: true, result });
    } else if (o.status === 'reason') {
      this._write('tool.execution_complete', { ...base, success: false, error: { message: E.rejectedWithFeedback(o.reason), code: 'denied' } });
    }
  }

  /**
   * The end of a message's calls. Stopped: every call whose prompt was pending gets `cancelled` /
   * "Session aborted" (in the order of the requests), then the model call ends and the turn is
   * aborted, `user_abort` when Esc Esc cut a running call, else `user_initiated` (§3, §5).
   */
  batchResolved(turn, calls, { aborted }) {
    if (!aborted) return this._turnEnd(turn);
    for (const c of calls) if (CANCELLED.has(c.outcome.status)) this._completed(c, { kind: 'cancelled', reason: E.sessionAborted }, false);
    const escEsc = calls.some((c) => c.outcome.status === 'interrupted' && c.outcome.trigger === 'esc');
    this._abort(turn, escEsc);
  }

  _abort(turn, escEsc) {
    this._turnEnd(turn);
    this._write('abort', { reason: escEsc ? E.abortEscEsc : E.abortUser });
  }

  /** A streamed answer cut: no assistant.message at all, the partial text is not kept (§5). */
  streamCut(turn, _partial, trigger) {
    this._abort(turn, trigger === 'esc');
  }

  answer(turn, text) {
    if (!turn.open) this._turnStart(turn);
    this._message(turn, text, []);
    this._turnEnd(turn);
  }

  /** A clean exit: the shutdown line (only when the file exists), and the lock goes (§1, §9). */
  exit() {
    if (this.started) this._write('session.shutdown', { shutdownType: 'routine', sessionStartTime: this.startedAt.getTime(), currentModel: MODEL, codeChanges: { linesAdded: 0, linesRemoved: 0, filesModified: [] } });
    rmSync(this._lock, { force: true });
  }
}

/** The tool's arguments as the model sends them (§1): absolute paths. */
function argumentsOf(c) {
  if (c.tool === 'shell') return { command: c.command, description: c.description ?? '' };
  if (c.tool === 'write') return { path: c.path, file_text: c.content ?? '' };
  return { path: c.path, old_str: c.oldString ?? '', new_str: c.newString ?? '' };
}

/** `promptRequest`: what the box shows. For `echo x > f` it offers no session option though the request does (§2). */
function promptRequestOf(c, request, sessionId) {
  if (c.tool !== 'shell') return { ...request, _permissionRequestSessionId: sessionId };
  const identifier = rememberedIdentifier(c.command);
  return {
    kind: 'commands', fullCommandText: c.command, intention: c.description ?? '', commandIdentifiers: identifier ? [identifier] : [],
    canOfferSessionApproval: identifier !== undefined, toolCallId: c.id,
  };
}

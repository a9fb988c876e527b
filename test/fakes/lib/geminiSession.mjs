// @ts-check
// Writes a Gemini CLI 0.61.0 session (~/.gemini/tmp/<slug>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl,
// slug mapped in ~/.gemini/projects.json) in the shapes of samples/*.session.jsonl: append-only,
// a message re-appended with the same id when it changes, `$set` records, the rollback of a fully
// cancelled turn (G1) and the deletion of a session that is not resumable at exit (G2).
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { hex } from './ids.mjs';
import { appendJsonLine } from './jsonl.mjs';
import { session as G } from './geminiStrings.mjs';

const TOKENS = { input: 100, output: 10, cached: 0, thoughts: 0, tool: 0, total: 110 };

export class GeminiSession {
  constructor({ cwd, home = homedir() }) {
    this.cwd = cwd;
    this.sessionId = randomUUID();
    const gem = join(home, '.gemini');
    const slug = basename(cwd);
    const projects = join(gem, 'projects.json');
    mkdirSync(gem, { recursive: true });
    const map = existsSync(projects) ? JSON.parse(readFileSync(projects, 'utf8')) : { projects: {} };
    map.projects[cwd] = slug;
    writeFileSync(projects, JSON.stringify(map));
    const now = new Date().toISOString();
    this.path = join(gem, 'tmp', slug, 'chats', `session-${now.slice(0, 16).replace(':', '-')}-${this.sessionId.slice(0, 8)}.jsonl`);
    this._resumable = false;
    this._started = false;
    this._n = 0;
  }

  _write(rec) {
    appendJsonLine(this.path, rec);
  }

  _touch() {
    this._write({ $set: { lastUpdated: new Date().toISOString() } });
  }

  userPrompt(text) {
    const now = new Date().toISOString();
    if (!this._started) {
      this._started = true;
      this._write({ sessionId: this.sessionId, projectHash: createHash('sha256').update(this.cwd).digest('hex'), startTime: now, lastUpdated: now, kind: 'main' });
      this._write({ $set: { messages: [{ id: hex(32), timestamp: now, type: 'user', content: [{ text: G.sessionContext }] }], lastUpdated: now } });
    }
    this._write({ id: randomUUID(), timestamp: now, type: 'user', content: [{ text }] });
    this._touch();
    return { text, geminiId: randomUUID(), startedAt: Date.now() };
  }

  _gemini(turn, extra = {}) {
    return { id: turn.geminiId, timestamp: turn.geminiAt, type: 'gemini', content: '', thoughts: [], tokens: TOKENS, model: G.model, ...extra };
  }

  proposed(turn, calls) {
    turn.geminiAt = new Date().toISOString();
    calls.forEach((c) => {
      const name = G.toolNames[c.tool];
      c.id ??= `${name}__${name}_${Date.now()}_${this._n++}`;
    });
    this._write(this._gemini(turn));
    this._touch();
  }

  callResolved() {
    // Gemini writes tool calls only when the whole batch reaches terminal states (batchResolved).
  }

  batchResolved(turn, calls, { aborted }) {
    const toolCalls = calls.map((c) => {
      const name = G.toolNames[c.tool];
      const o = c.outcome;
      const args = c.tool === 'shell' ? { command: c.command, description: c.description ?? '' } : c.tool === 'write' ? { file_path: c.path, content: c.content ?? '' } : { file_path: c.path, old_string: c.oldString ?? '', new_string: c.newString ?? '' };
      const allShell = calls.every((x) => x.tool === 'shell');
      const error = o.status === 'denied' || (o.status === 'sibling' && allShell) ? G.denied : o.status === 'sibling' ? G.sibling : G.byUser;
      const response = o.status === 'success' ? { output: o.output } : { error };
      return {
        id: c.id, name, args, result: [{ functionResponse: { id: c.id, name, response } }],
        status: o.status === 'success' ? 'success' : 'cancelled', timestamp: new Date().toISOString(),
        description: c.command ?? c.path, displayName: G.displayNames[c.tool], renderOutputAsMarkdown: false,
      };
    });
    this._write(this._gemini(turn, { toolCalls }));
    const ran = calls.filter((c) => c.outcome.status === 'success' || c.outcome.status === 'interrupted');
    if (ran.length) {
      this._resumable ||= calls.some((c) => c.outcome.status === 'success');
      this._write({ id: randomUUID(), timestamp: new Date().toISOString(), type: 'user', content: toolCalls.filter((t, i) => ran.includes(calls[i])).map((t) => t.result[0]) });
      this._touch();
    }
    if (!aborted) return;
    this._write({ id: randomUUID(), timestamp: new Date().toISOString(), type: 'info', content: G.requestCancelled });
    this._touch();
    if (!ran.length) this._rollBack(turn);
  }

  /** G1: a turn whose every call was cancelled is trimmed back to the user's prompt. */
  _rollBack(turn) {
    const now = new Date().toISOString();
    const msg = { id: randomUUID(), timestamp: now, type: 'user', content: [{ text: G.sessionContext }, { text: turn.text }] };
    this._write(msg);
    this._touch();
    this._write({ $set: { messages: [msg], lastUpdated: now } });
  }

  streamCut() {
    this._write({ id: randomUUID(), timestamp: new Date().toISOString(), type: 'info', content: G.requestCancelled });
    this._touch();
  }

  answer(turn, text) {
    this._resumable = true;
    this._write({ id: randomUUID(), timestamp: new Date().toISOString(), type: 'gemini', content: text, thoughts: [], tokens: TOKENS, model: G.model });
    this._touch();
  }

  /** G2: at exit a session with no successful tool call and no answer is deleted. */
  exit() {
    if (!this._resumable && existsSync(this.path)) rmSync(this.path);
  }
}

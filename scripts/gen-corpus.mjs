#!/usr/bin/env node
// @ts-check
// Generates a corpus of agent session files for the merge benchmark: Codex rollouts, Gemini JSONL
// sessions, Claude transcripts and Copilot events files in their real layouts and record shapes
// (modelled on ../shared/agents/*/samples: codex 0.169.0, gemini 0.61.0, claude 2.1.328; Copilot on
// its 1.0.102 recordings, bench-lib/copilotCorpus.mjs), with approvals, rejections, interruptions
// and parallel batches mixed in. Deterministic for a given seed.
//
//   node scripts/gen-corpus.mjs DIR [--mb 520] [--seed 1] [--non-ascii SHARE] [--sessions N]
//
// --sessions N writes exactly N sessions in about --mb: the sizes keep their spread (many small, some
// long) but are scaled so they add up to --mb, e.g. 24,570 sessions of 1.5–34 kB in 300 MB.
//
// Layout under DIR: codex/sessions/2026/11/22/rollout-*.jsonl, gemini/tmp/work/chats/session-*.jsonl,
// claude/projects/-work/<uuid>.jsonl, copilot/session-state/<uuid>/events.jsonl — the agents' own
// folder shapes, so `--agent` discovery works with CODEX_HOME=DIR/codex HOME=… as well as plain file
// arguments.
import { mkdirSync, openSync, writeSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { copilotSession } from './bench-lib/copilotCorpus.mjs';
import { COMMANDS, iso, uuid } from './bench-lib/corpusParts.mjs';

/** Session sizes vary like real ones: many small sessions, some long ones. */
const MIN_SESSION_BYTES = 40_000;
const MAX_SESSION_BYTES = 900_000;

const WORDS = (
  'the a file test build run check fix error type module import export function return value config path ' +
  'update change commit branch merge review patch line code step plan next done read write list show find ' +
  'grep make install start stop wait retry cache index table query row column user agent tool call result'
).split(' ');

/**
 * Characters real agents write in prose and prompts (typographic quotes and dashes, ellipses,
 * arrows, check marks, accented words). In the real samples of ../shared/agents, 35–51 % of a
 * session's bytes are on lines with at least one such character; V8 decodes such a line much more
 * slowly than an ASCII one.
 */
const NON_ASCII_WORDS = ['“quoted”', 'it’s', '—', '…', '→', 'naïve', '✓', 'café', '–', '•'];

/**
 * `nonAscii`: the share of generated texts that get one to three of NON_ASCII_WORDS (0: all ASCII,
 * the corpus of every figure before the sixth session). Other shares draw more random numbers, so
 * they give other sessions, not the same ones with accents.
 */
export function createRng(seed, { nonAscii = 0 } = {}) {
  let s = seed >>> 0 || 1;
  const next = () => {
    // xorshift32: fast, deterministic, good enough for shaping test data.
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    words: (n) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(next() * WORDS.length)]);
      if (nonAscii > 0 && n > 0 && next() < nonAscii) {
        for (let k = 1 + Math.floor(next() * 3); k > 0; k--) out[Math.floor(next() * n)] = NON_ASCII_WORDS[Math.floor(next() * NON_ASCII_WORDS.length)];
      }
      return out.join(' ');
    },
    hex: (n) => {
      let h = '';
      while (h.length < n) h += Math.floor(next() * 4294967296).toString(16).padStart(8, '0');
      return h.slice(0, n);
    },
  };
}

class Writer {
  constructor(path) {
    this.fd = openSync(path, 'w');
    this.bytes = 0;
    this.buf = [];
    this.bufBytes = 0;
  }
  line(obj) {
    const s = `${JSON.stringify(obj)}\n`;
    this.buf.push(s);
    this.bufBytes += s.length;
    this.bytes += Buffer.byteLength(s);
    if (this.bufBytes > 1 << 20) this.flush();
  }
  flush() {
    if (this.buf.length) writeSync(this.fd, this.buf.join(''));
    this.buf = [];
    this.bufBytes = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

function codexSession(w, r, t0, target) {
  const sid = uuid(r);
  let t = t0;
  let ordinal = 0;
  // 0.169 numbers its lines (`ordinal`, between the timestamp and the type).
  const rec = (type, payload) => w.line({ timestamp: iso((t += r.int(5, 900))), ordinal: ordinal++, type, payload });
  rec('session_meta', { id: sid, timestamp: iso(t), cwd: '/work/project', originator: 'codex-tui', cli_version: '0.169.0', source: 'cli', model_provider: 'openai', base_instructions: { text: r.words(1500) } });
  let turn = 0;
  while (w.bytes < target) {
    const turnId = uuid(r);
    turn++;
    rec('event_msg', { type: 'task_started', turn_id: turnId, root_turn_id: turnId, started_at: Math.floor(t / 1000), model_context_window: 258400 });
    rec('turn_context', { turn_id: turnId, cwd: '/work/project', approval_policy: 'on-request', model: 'gpt-5', summary: 'auto' });
    if (turn % 5 === 1) rec('world_state', { full: true, state: { agents_md: {}, environments: { local: { cwd: '/work/project' } }, notes: r.words(400) } });
    const prompt = `${r.words(r.int(5, 40))}?`;
    rec('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }], internal_chat_message_metadata_passthrough: { turn_id: turnId } });
    rec('event_msg', { type: 'item_completed', turn_id: turnId, item: { type: 'UserMessage', id: uuid(r), content: [{ type: 'text', text: prompt }] } });
    const calls = r.next() < 0.2 ? r.int(2, 3) : 1;
    const ids = [];
    for (let i = 0; i < calls; i++) {
      const callId = `call_${r.hex(16)}`;
      ids.push(callId);
      const cmd = r.pick(COMMANDS);
      rec('response_item', { type: 'function_call', status: 'completed', id: `fc_${r.hex(16)}`, name: 'exec_command', arguments: JSON.stringify({ cmd, yield_time_ms: 1000, sandbox_permissions: 'require_escalated', justification: `${r.words(6)}?` }), call_id: callId, internal_chat_message_metadata_passthrough: { turn_id: turnId } });
    }
    rec('token_usage_record', { thread_id: sid, turn_id: turnId, usage: { input_tokens: r.int(100, 9000), output_tokens: r.int(10, 900), total_tokens: r.int(200, 9900) } });
    const aborted = r.next() < 0.15;
    for (const callId of ids) {
      if (aborted) {
        rec('response_item', { type: 'function_call_output', id: `fco_${r.hex(16)}`, call_id: callId, output: `Wall time: ${r.int(1, 9)}.${r.int(0, 9)} seconds\naborted by user` });
      } else {
        const out = r.words(r.int(20, 600));
        rec('event_msg', { type: 'item_completed', turn_id: turnId, item: { type: 'CommandExecution', id: callId, status: 'completed', exit_code: 0, aggregated_output: out } });
        rec('response_item', { type: 'function_call_output', id: `fco_${r.hex(16)}`, call_id: callId, output: `Exit code: 0\nWall time: 0.1 seconds\nOutput:\n${out}` });
      }
    }
    rec('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: r.int(100, 90000) }, model_context_window: 258400 }, rate_limits: { limit_id: 'codex' } });
    if (aborted) {
      rec('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>' }] });
      rec('event_msg', { type: 'turn_aborted', turn_id: turnId, reason: 'interrupted', duration_ms: r.int(100, 9000) });
      continue;
    }
    const answer = r.words(r.int(30, 400));
    rec('event_msg', { type: 'item_completed', turn_id: turnId, item: { type: 'AgentMessage', id: `msg_${r.hex(16)}`, content: [{ type: 'Text', text: answer }] } });
    rec('response_item', { type: 'message', status: 'completed', id: `msg_${r.hex(16)}`, role: 'assistant', content: [{ type: 'output_text', text: answer, annotations: [] }] });
    rec('event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: answer.slice(0, 200), duration_ms: r.int(100, 90000) });
  }
}

function geminiSession(w, r, t0, target) {
  let t = t0;
  const ts = () => iso((t += r.int(5, 900)));
  w.line({ sessionId: uuid(r), projectHash: r.hex(64), startTime: iso(t), lastUpdated: iso(t), kind: 'main' });
  w.line({ $set: { messages: [{ id: r.hex(32), timestamp: ts(), type: 'user', content: [{ text: `<session_context>\n${r.words(300)}` }] }], lastUpdated: iso(t) } });
  let n = 0;
  while (w.bytes < target) {
    w.line({ id: uuid(r), timestamp: ts(), type: 'user', content: [{ text: r.words(r.int(5, 40)) }] });
    w.line({ $set: { lastUpdated: iso(t) } });
    const gid = uuid(r);
    const base = { id: gid, timestamp: ts(), type: 'gemini', content: '', thoughts: [], tokens: { input: r.int(100, 9000), output: r.int(10, 900), total: 1000 }, model: 'gemini-2.5-flash' };
    w.line(base);
    const calls = r.next() < 0.2 ? r.int(2, 3) : 1;
    const deny = r.next() < 0.15;
    const toolCalls = [];
    for (let i = 0; i < calls; i++) {
      const id = `run_shell_command__run_shell_command_${t}_${n++}`;
      const command = r.pick(COMMANDS);
      const error = deny ? (i === 0 ? '[Operation Cancelled] Reason: User denied execution.' : '[Operation Cancelled] Reason: User cancelled operation') : null;
      const response = error ? { error } : { output: r.words(r.int(20, 500)) };
      toolCalls.push({ id, name: 'run_shell_command', args: { command, description: r.words(5) }, result: [{ functionResponse: { id, name: 'run_shell_command', response } }], status: error ? 'cancelled' : 'success', timestamp: ts(), description: command, displayName: 'Shell', renderOutputAsMarkdown: false });
    }
    w.line({ ...base, toolCalls });
    if (deny) {
      w.line({ id: uuid(r), timestamp: ts(), type: 'info', content: 'Request cancelled.' });
      w.line({ $set: { lastUpdated: iso(t) } });
      continue;
    }
    w.line({ id: uuid(r), timestamp: ts(), type: 'gemini', content: r.words(r.int(30, 400)), thoughts: [], model: 'gemini-2.5-flash' });
    w.line({ $set: { lastUpdated: iso(t) } });
  }
}

function claudeSession(w, r, t0, target) {
  const sid = uuid(r);
  let t = t0;
  const meta = () => ({ parentUuid: uuid(r), isSidechain: false, uuid: uuid(r), timestamp: iso((t += r.int(5, 900))), cwd: '/work/project', sessionId: sid, version: '2.1.328', gitBranch: 'main', userType: 'external', entrypoint: 'cli' });
  w.line({ type: 'mode', mode: 'normal', sessionId: sid });
  w.line({ type: 'permission-mode', permissionMode: 'default', sessionId: sid });
  while (w.bytes < target) {
    w.line({ ...meta(), type: 'user', message: { role: 'user', content: r.words(r.int(5, 40)) }, promptId: uuid(r) });
    w.line({ type: 'api-request-blob', sessionId: sid, hash: r.hex(64), message: { role: 'user', content: [{ type: 'text', text: r.words(r.int(100, 600)) }] } });
    const msgId = `msg_${r.hex(20)}`;
    w.line({ ...meta(), type: 'assistant', message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'text', text: r.words(r.int(5, 60)) }], stop_reason: 'tool_use', usage: { input_tokens: 100, output_tokens: 42 } } });
    const calls = r.next() < 0.2 ? r.int(2, 3) : 1;
    const ids = [];
    for (let i = 0; i < calls; i++) {
      const id = `toolu_${r.hex(20)}`;
      ids.push(id);
      const input = r.next() < 0.5 ? { command: r.pick(COMMANDS), description: r.words(4) } : { file_path: `/work/project/src/${r.pick(WORDS)}.ts`, old_string: r.words(20), new_string: r.words(20) };
      w.line({ ...meta(), type: 'assistant', message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'tool_use', id, name: 'command' in input ? 'Bash' : 'Edit', input }], stop_reason: 'tool_use' } });
    }
    const fate = r.next();
    const rejectStop = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
    if (fate < 0.12) {
      const at = iso((t += 300));
      for (const id of ids) w.line({ ...meta(), timestamp: at, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: rejectStop, is_error: true, tool_use_id: id }] }, toolUseResult: 'User rejected tool use', toolDenialKind: 'user-rejected', toolDenialBeforeRun: true });
      w.line({ ...meta(), type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] } });
      continue;
    }
    if (fate < 0.17) {
      w.line({ ...meta(), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: rejectStop, is_error: true, tool_use_id: ids[0] }] }, toolUseResult: 'User rejected tool use', toolDenialKind: 'user-rejected' });
      w.line({ ...meta(), type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] }, interruptedMessageId: msgId });
      continue;
    }
    for (const id of ids) {
      const out = r.words(r.int(20, 500));
      w.line({ ...meta(), type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: out, is_error: false }] }, toolUseResult: { stdout: out, stderr: '', interrupted: false }, permissionDecision: { decision: 'accept', source: 'user_temporary', grantScope: 'once', reasonCode: 'unknown' } });
    }
    w.line({ ...meta(), type: 'assistant', message: { id: `msg_${r.hex(20)}`, type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'text', text: r.words(r.int(30, 400)) }], stop_reason: 'end_turn' } });
    w.line({ type: 'file-history-snapshot', messageId: uuid(r), snapshot: { trackedFileBackups: {}, timestamp: iso(t) }, isSnapshotUpdate: false });
  }
}

/**
 * Each agent's sessions: its folder under DIR, a file name (which may start with a folder of its
 * own) and a generator, called as `session(writer, rng, startMs, targetBytes, fileName)`. Keyed by
 * the registry's names (src/agents/registry.ts); test/unit/agents/agentLists.test.ts holds the keys
 * equal to it.
 */
export const CORPUS_AGENTS = {
  codex: { dir: join('codex', 'sessions', '2026', '11', '22'), fileName: (r) => `rollout-2026-11-22T00-00-00-${uuid(r)}.jsonl`, session: codexSession },
  gemini: { dir: join('gemini', 'tmp', 'work', 'chats'), fileName: (r) => `session-2026-11-22T00-00-${r.hex(8)}.jsonl`, session: geminiSession },
  claude: { dir: join('claude', 'projects', '-work-project'), fileName: (r) => `${uuid(r)}.jsonl`, session: claudeSession },
  // One folder per session, named after its id.
  copilot: { dir: join('copilot', 'session-state'), fileName: (r) => join(uuid(r), 'events.jsonl'), session: copilotSession },
};

/** Writes the corpus; returns the files with their agent and size. */
export function generateCorpus(dir, { mb = 520, seed = 1, nonAscii = 0, sessions = 0 } = {}) {
  const r = createRng(seed, { nonAscii });
  const targetBytes = mb * 1e6;
  const agents = Object.keys(CORPUS_AGENTS);
  const files = [];
  let total = 0;
  let t = Date.parse('2026-11-22T00:00:00.000Z');
  let i = 0;
  // The mean of MIN + (MAX - MIN) * u² for a uniform u.
  const meanBytes = MIN_SESSION_BYTES + (MAX_SESSION_BYTES - MIN_SESSION_BYTES) / 3;
  while (sessions > 0 ? i < sessions : total < targetBytes) {
    const agent = agents[i % agents.length];
    const kind = CORPUS_AGENTS[agent];
    let size = Math.round(MIN_SESSION_BYTES + (MAX_SESSION_BYTES - MIN_SESSION_BYTES) * r.next() ** 2);
    // Scaled to what is left per session left, so a session that overshoots its size is made up for.
    if (sessions > 0) size = Math.round((size * Math.max(0, targetBytes - total)) / (sessions - i) / meanBytes);
    const name = kind.fileName(r);
    const path = join(dir, kind.dir, name);
    mkdirSync(dirname(path), { recursive: true });
    const w = new Writer(path);
    kind.session(w, r, t, size, name);
    w.close();
    files.push({ agent, path, bytes: w.bytes });
    total += w.bytes;
    t += 3_600_000;
    i++;
  }
  return { files, bytes: total };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      mb: { type: 'string', default: '520' },
      seed: { type: 'string', default: '1' },
      'non-ascii': { type: 'string', default: '0' },
      sessions: { type: 'string', default: '0' },
    },
  });
  const nonAscii = Number(values['non-ascii']);
  const sessions = Number(values.sessions);
  if (positionals.length !== 1 || !(nonAscii >= 0 && nonAscii <= 1) || !(Number.isInteger(sessions) && sessions >= 0)) {
    console.error('usage: node scripts/gen-corpus.mjs DIR [--mb 520] [--seed 1] [--non-ascii SHARE (0-1)] [--sessions N]');
    process.exit(2);
  }
  const started = Date.now();
  const { files, bytes } = generateCorpus(positionals[0], { mb: Number(values.mb), seed: Number(values.seed), nonAscii, sessions });
  console.log(`${files.length} session files, ${(bytes / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s under ${positionals[0]}`);
}

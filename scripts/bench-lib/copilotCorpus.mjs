// @ts-check
// GitHub Copilot CLI sessions for the merge benchmark's corpus (scripts/gen-corpus.mjs): the
// session-state/<sessionId>/events.jsonl of 1.0.102, in the event shapes of its recordings
// (test/fixtures/copilot/1.0.102/recorded/*.events.jsonl, docs/copilot.md §3–§7). Each line is
// `{type, data, id, timestamp, parentId}` in that key order, its parentId the line before, as the
// CLI writes them, so the reader's quick path for bookkeeping lines (COUNTED_HEAD and ENVELOPE_TAIL
// in src/agents/copilot/sessionRecords.ts) takes them as it takes the real ones.
//
// A user turn asks for one call, or two to three in one message: `bash` (a shell prompt), `edit` (a
// write prompt) or `view` (no prompt, it just runs). At the first prompt the user stops the turn
// (every pending prompt "Session aborted", then an `abort`), refuses with typed feedback (the
// prompts after it approved), or approves them all; after the calls the model answers.
import { basename, dirname } from 'node:path';
import { COMMANDS, iso, uuid } from './corpusParts.mjs';

const VERSION = '1.0.102';
const MODEL = 'claude-sonnet-4.5';
const CWD = '/work/project';
/** tool.execution_complete `error.message` of a refusal with feedback (1.0.102), then the feedback. */
const REFUSED_WITH_FEEDBACK = 'The user rejected this tool call. User feedback: ';
/** The real system prompt is about 25 kB, written once, after the first user message. */
const SYSTEM_PROMPT_WORDS = 4000;
const TELEMETRY_METRICS = { context_token_limit: 128000, large_output_threshold_bytes: 20480 };

/**
 * One session's event log: the envelope (fresh id, the clock, the parent chain) around `data`, and
 * the session-wide counters.
 */
function eventLog(w, r, t0, sessionId) {
  let t = t0;
  let parentId = null;
  return {
    r,
    sessionId,
    shells: 0,
    userRequests: 0,
    modelRequests: 0,
    now: () => iso(t),
    emit(type, data) {
      const id = uuid(r);
      w.line({ type, data, id, timestamp: iso((t += r.int(2, 700))), parentId });
      parentId = id;
    },
  };
}

/** Writes one session of about `target` bytes; `name` is `<sessionId>/events.jsonl`, the folder named after the session. */
export function copilotSession(w, r, t0, target, name) {
  const log = eventLog(w, r, t0, basename(dirname(name)));
  log.emit('session.start', {
    sessionId: log.sessionId, version: 1, producer: 'copilot-agent', copilotVersion: VERSION, startTime: iso(t0), selectedModel: MODEL,
    contextTier: null, context: { cwd: CWD, gitRoot: CWD, branch: 'main' }, alreadyInUse: false, remoteSteerable: false,
  });
  log.emit('session.model_change', { source: 'startup', contextTier: null, newModel: MODEL, previousModel: MODEL, reasoningEffort: null });
  while (w.bytes < target) userTurn(log);
  log.emit('session.shutdown', shutdownData(log, t0));
}

function userTurn(log) {
  const r = log.r;
  const turn = { interactionId: uuid(r), messageId: uuid(r), modelCall: 0 };
  const content = `${r.words(r.int(5, 40))}?`;
  log.emit('user.message', {
    content, transformedContent: `<current_datetime>${log.now().replace('Z', '+00:00')}</current_datetime>\n\n${content}`, messageId: turn.messageId,
    supportedNativeDocumentMimeTypes: [], delivery: 'idle', interactionId: turn.interactionId, turnId: '0', parentAgentTaskId: uuid(r),
  });
  if (log.userRequests++ === 0) {
    log.emit('system.message', { role: 'system', content: r.words(SYSTEM_PROMPT_WORDS), metadata: { variables: { gitCommitTrailer: { sessionId: null, clientName: 'github/cli', coauthorEnabled: true } } }, interactionId: turn.interactionId });
  }
  const calls = Array.from({ length: r.next() < 0.2 ? r.int(2, 3) : 1 }, () => toolCall(r));
  const turnId = modelCall(log, turn, r.words(r.int(3, 20)), calls);
  for (const c of calls) log.emit('tool.execution_start', { toolCallId: c.toolCallId, toolName: c.name, arguments: c.arguments, turnId, model: MODEL, toolTitle: c.title });
  // A call without a prompt (`view`) runs at once; the others wait for theirs.
  for (const c of calls) if (c.kind === null) complete(log, turn, turnId, c, null);
  const prompted = calls.filter((c) => c.kind !== null);
  for (const c of prompted) log.emit('permission.requested', permissionRequest(log, c));
  const fate = r.next();
  if (prompted.length > 0 && fate < 0.08) {
    for (const c of prompted) log.emit('permission.completed', { requestId: c.requestId, toolCallId: c.toolCallId, result: { kind: 'cancelled', reason: 'Session aborted' } });
    log.emit('assistant.turn_end', { turnId });
    log.emit('abort', { reason: 'user_initiated' });
    return;
  }
  prompted.forEach((c, i) => {
    const feedback = i === 0 && fate < 0.2 ? r.words(r.int(3, 12)) : null;
    const result = feedback === null ? { kind: 'approved' } : { kind: 'denied-interactively-by-user', feedback };
    log.emit('permission.completed', { requestId: c.requestId, toolCallId: c.toolCallId, result, decisionSource: 'human_response' });
    complete(log, turn, turnId, c, feedback);
  });
  log.emit('assistant.turn_end', { turnId });
  log.emit('assistant.turn_end', { turnId: modelCall(log, turn, r.words(r.int(30, 400)), []) });
}

/** One model call of the turn, up to its message: the turn start, its usage, the message. Returns its turnId. */
function modelCall(log, turn, content, calls) {
  const r = log.r;
  const turnId = String(turn.modelCall++);
  const apiCallId = `msg_${r.hex(24)}`;
  log.emit('assistant.turn_start', { turnId, interactionId: turn.interactionId });
  log.emit('session.usage_record', { usage: usage(log, apiCallId, calls, turnId === '0' ? 'user' : 'agent') });
  const toolRequests = calls.map((c) => ({ toolCallId: c.toolCallId, name: c.name, arguments: c.arguments, type: 'function', intentionSummary: c.intention, toolTitle: c.title }));
  log.emit('assistant.message', { messageId: uuid(r), originatingMessageId: turn.messageId, model: MODEL, content, toolRequests, interactionId: turn.interactionId, turnId, rte: false, apiCallId });
  return turnId;
}

function usage(log, apiCallId, calls, initiator) {
  const r = log.r;
  const toolCounts = {};
  for (const c of calls) toolCounts[c.name] = (toolCounts[c.name] ?? 0) + 1;
  const bytes = r.int(20_000, 200_000);
  return {
    model: MODEL, modelDisplayName: 'Claude Sonnet 4.5', inputTokens: r.int(100, 90000), outputTokens: r.int(10, 2000), cacheReadTokens: r.int(0, 80000), cacheWriteTokens: 0, cost: 1,
    duration: r.int(200, 20000), timeToFirstTokenMs: r.int(100, 3000) + r.next(), initiator, interactionType: 'conversation-agent', isByok: false, modelProvider: 'anthropic', isAuto: false,
    maxPromptTokens: 128000, maxOutputTokens: 16000, transport: 'http', requestBodyBytes: bytes, requestBodyWireBytes: bytes, requestBodyEncoding: 'identity', apiCallId, rte: false,
    apiEndpoint: '/v1/messages', accounting: { sourceSessionId: log.sessionId, sequence: ++log.modelRequests, usageId: apiCallId }, availableToolCount: 18, toolTokenCount: 7018,
    numToolCalls: calls.length, toolCounts, finishReason: calls.length > 0 ? 'tool_calls' : 'stop', contentFilterTriggered: false,
  };
}

/** A call the model asks for, with the prompt kind it gets (null: none). */
function toolCall(r) {
  const toolCallId = `toolu_${r.hex(24)}`;
  const path = `${CWD}/src/${r.words(1)}.ts`;
  const pick = r.next();
  if (pick < 0.5) {
    const description = r.words(r.int(2, 6));
    return { toolCallId, name: 'bash', kind: 'shell', arguments: { command: r.pick(COMMANDS), description }, intention: description, title: 'Running command' };
  }
  if (pick < 0.8) {
    const args = { path, old_str: r.words(r.int(3, 30)), new_str: r.words(r.int(3, 30)) };
    return { toolCallId, name: 'edit', kind: 'write', arguments: args, intention: `edit the file at ${path}.`, title: 'Editing file', before: r.words(r.int(50, 400)) };
  }
  return { toolCallId, name: 'view', kind: null, arguments: { path }, intention: `view the file at ${path}.`, title: 'Viewing file' };
}

function permissionRequest(log, c) {
  c.requestId = uuid(log.r);
  const shared = { agentMode: 'interactive', permissionMode: 'manual', ownerSessionId: log.sessionId };
  if (c.kind === 'shell') {
    const cmd = c.arguments.command;
    const identifier = cmd.split(' ')[0];
    const segment = { identifier, fullCommandText: cmd, allowMatchIdentifier: null, staticTokens: cmd.split(' '), hasUnboundExecutableContent: false, workingDirectory: CWD };
    const request = {
      kind: 'shell', toolCallId: c.toolCallId, fullCommandText: cmd, shellType: 'bash', intention: c.intention, commands: [{ identifier, readOnly: false, allowMatchIdentifier: null }],
      commandSegments: [segment], possiblePaths: [], canOfferSessionApproval: true, hasWriteFileRedirection: false, possibleUrls: [],
    };
    const promptRequest = { kind: 'commands', fullCommandText: cmd, intention: c.intention, commandIdentifiers: [], canOfferSessionApproval: false, toolCallId: c.toolCallId };
    return { requestId: c.requestId, permissionRequest: request, promptRequest, ...shared };
  }
  const { path, old_str: oldStr, new_str: newStr } = c.arguments;
  const after = `${c.before}\n${newStr}\n`;
  const request = {
    kind: 'write', toolCallId: c.toolCallId, intention: 'Edit file', fileName: path, diff: editDiff(path, oldStr, newStr), newFileContents: after, canOfferSessionApproval: true,
    fileEdits: [{ before: { path, content: `${c.before}\n${oldStr}\n` }, after: { path, content: after } }],
  };
  return { requestId: c.requestId, permissionRequest: request, promptRequest: { ...request, _permissionRequestSessionId: log.sessionId }, ...shared };
}

const editDiff = (path, oldStr, newStr) => `\ndiff --git a${path} b${path}\nindex 0000000..0000000 100644\n--- a${path}\n+++ b${path}\n@@ -1,2 +1,2 @@\n-${oldStr}\n+${newStr}\n`;

/** The call's tool.execution_complete: its output, or the refusal the model is told (feedback not null). */
function complete(log, turn, turnId, c, feedback) {
  const r = log.r;
  const base = { toolCallId: c.toolCallId, model: MODEL, interactionId: turn.interactionId, turnId, rte: false };
  const metrics = { ...TELEMETRY_METRICS, context_current_tokens: r.int(12000, 120000) };
  const fileProperties = { command: c.name, options: '{"truncateBasedOn":"tokenCount","truncateStyle":"middle"}', resolvedPathAgainstCwd: 'false', fileExtension: '[".ts"]' };
  if (feedback !== null) {
    const properties = c.name === 'bash' ? { shell_error_category: 'permission_denied' } : fileProperties;
    log.emit('tool.execution_complete', { ...base, success: false, error: { message: `${REFUSED_WITH_FEEDBACK}${feedback}`, code: 'denied' }, toolTelemetry: { properties, metrics } });
    return;
  }
  if (c.name === 'bash') {
    const content = `${r.words(r.int(20, 500))}\n<shellId: ${log.shells++} completed with exit code 0>`;
    const properties = { customTimeout: 'false', executionMode: 'sync', detached: 'false', sandboxApplied: 'false', sandboxOptOutRequested: 'false' };
    log.emit('tool.execution_complete', { ...base, shellExecution: { exitCode: 0 }, success: true, result: { content }, toolTelemetry: { properties, metrics: { commandTimeout: 30000, ...metrics } } });
    return;
  }
  const { path } = c.arguments;
  const result = c.name === 'edit'
    ? { content: `File ${path} updated with changes.`, detailedContent: editDiff(path, c.arguments.old_str, c.arguments.new_str) }
    : { content: r.words(r.int(50, 600)), detailedContent: '' };
  log.emit('tool.execution_complete', { ...base, success: true, result, toolTelemetry: { properties: fileProperties, restrictedProperties: {}, metrics } });
}

function shutdownData(log, t0) {
  const requests = { count: log.modelRequests, cost: log.modelRequests };
  const tokens = { inputTokens: 900 * log.modelRequests, outputTokens: 90 * log.modelRequests, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const modelMetrics = { [MODEL]: { requests, usage: tokens } };
  return {
    shutdownType: 'routine', totalPremiumRequests: log.userRequests, totalApiDurationMs: 2000 * log.modelRequests, sessionStartTime: t0,
    codeChanges: { linesAdded: 0, linesRemoved: 0, filesModified: [] }, modelMetrics, agentMetrics: { main: { modelMetrics } },
    currentModel: MODEL, currentTokens: 12412, systemTokens: 5325, conversationTokens: 116, toolDefinitionsTokens: 6968,
  };
}

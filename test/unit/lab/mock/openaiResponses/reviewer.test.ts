// The mock Responses API as Codex's auto-review reviewer (docs/codex-auto-review.md): a request with
// `x-openai-subagent: guardian` (or, without the header, the approval request in its input) gets the
// scripted verdict as strict JSON text, is recorded as kind `review` with its index and planned
// command, and leaves the scenario's turn where it was: the next turn request gets the next step.
import { afterEach, describe, expect, it } from 'vitest';
import { startResponsesServer, type ResponsesServer, type ResponsesServerOptions } from '../../../../../src/lab/mock/openaiResponses/server.js';
import { DEFAULT_REVIEW_RATIONALE, type ReviewRequest } from '../../../../../src/lab/mock/openaiResponses/reviewer.js';
import { DONE_TEXT, REVIEW3_COMMANDS, REVIEW_COMMAND } from '../../../../../src/lab/mock/openaiResponses/scenarios.js';

let server: ResponsesServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(opts: ResponsesServerOptions = {}): Promise<ResponsesServer> {
  server = await startResponsesServer(opts);
  return server;
}

const TOOLS = [{ type: 'function', name: 'exec_command' }];
const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const callOf = (callId: string, cmd: string) => ({ type: 'function_call', call_id: callId, name: 'exec_command', arguments: JSON.stringify({ cmd }) });
const outputOf = (callId: string) => ({ type: 'function_call_output', call_id: callId, output: 'exec_command failed: Rejected' });

/** The user message of a reviewer request as Codex 0.171.0 sends it (abridged), split into input_text items as it is. */
function reviewInput(cmd: string): unknown {
  const action = { command: ['/bin/bash', '-lc', cmd], cwd: '/w', justification: `Run ${cmd}?`, sandbox_permissions: 'require_escalated', tool: 'exec_command' };
  return {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: `The following is the Codex agent history…\n>>> TRANSCRIPT START\nuser: SCN=review1 go\n>>> TRANSCRIPT END\n` },
      { type: 'input_text', text: '>>> APPROVAL REQUEST START\nAssess the exact planned action below.\n' },
      { type: 'input_text', text: 'Planned action JSON:\n' },
      { type: 'input_text', text: `${JSON.stringify(action, null, 2)}\n` },
      { type: 'input_text', text: '>>> APPROVAL REQUEST END\n' },
    ],
  };
}

function post(s: ResponsesServer, input: unknown[], headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${s.baseUrl}/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'mock-model', stream: true, input, tools: TOOLS }),
  });
}

const GUARDIAN = { 'x-openai-subagent': 'guardian' };

/** The `data:` objects of the SSE body. */
async function events(res: Response): Promise<{ type: string; [k: string]: unknown }[]> {
  return (await res.text())
    .split('\n\n')
    .filter((chunk) => chunk.trim())
    .map((chunk) => JSON.parse(chunk.split('\n').find((l) => l.startsWith('data: '))!.slice(6)) as { type: string });
}

/** The one assistant text of a reply, from its `output_item.done`. */
async function replyText(res: Response): Promise<string | undefined> {
  const done = (await events(res)).find((e) => e.type === 'response.output_item.done') as { item: { type: string; content?: { text: string }[] } } | undefined;
  return done?.item.type === 'message' ? done.item.content![0]!.text : undefined;
}

describe('the mock Responses API as the auto-review reviewer', () => {
  it('denies by default with a fixed rationale, and the turn’s step does not move', async () => {
    const s = await start();
    const first = await events(await post(s, [user('SCN=review1 go')]));
    expect(first.some((e) => e.type === 'response.output_item.done' && (e.item as { type: string }).type === 'function_call')).toBe(true);
    const [call] = s.calls;
    const verdict = JSON.parse((await replyText(await post(s, [reviewInput(REVIEW_COMMAND)], GUARDIAN)))!) as Record<string, unknown>;
    expect(verdict).toEqual({ risk_level: 'high', user_authorization: 'low', outcome: 'deny', rationale: DEFAULT_REVIEW_RATIONALE });
    expect(s.calls).toHaveLength(1);
    // The turn goes on after the rejected call: the scenario's next reply (here its end), step 1.
    expect(await replyText(await post(s, [user('SCN=review1 go'), callOf(call!.callId, REVIEW_COMMAND), outputOf(call!.callId)]))).toBe(DONE_TEXT);
    expect(s.requests.map((r) => [r.kind, r.scenario, r.step])).toEqual([
      ['turn', 'review1', 0],
      ['review', undefined, undefined],
      ['turn', 'review1', 1],
    ]);
    expect(s.requests[1]!.review).toMatchObject({ index: 0, command: ['/bin/bash', '-lc', REVIEW_COMMAND], cmd: REVIEW_COMMAND, justification: `Run ${REVIEW_COMMAND}?`, verdict: 'deny' });
  });

  it('asks the scripted reviewer with the planned command and a running index, and sends its verdict', async () => {
    const seen: ReviewRequest[] = [];
    const s = await start({
      reviewer: (req) => {
        seen.push(req);
        return req.index === 1 ? { outcome: 'allow', rationale: 'fine' } : { outcome: 'deny', rationale: `no ${req.index}`, riskLevel: 'critical' };
      },
    });
    const texts: string[] = [];
    for (const cmd of REVIEW3_COMMANDS) texts.push((await replyText(await post(s, [reviewInput(cmd)], GUARDIAN)))!);
    expect(seen.map((r) => [r.index, r.cmd])).toEqual(REVIEW3_COMMANDS.map((cmd, i) => [i, cmd]));
    expect(texts.map((t) => JSON.parse(t) as unknown)).toEqual([
      { risk_level: 'critical', user_authorization: 'low', outcome: 'deny', rationale: 'no 0' },
      { risk_level: 'low', user_authorization: 'high', outcome: 'allow', rationale: 'fine' },
      { risk_level: 'critical', user_authorization: 'low', outcome: 'deny', rationale: 'no 2' },
    ]);
    expect(s.requests.filter((r) => r.kind === 'review').map((r) => r.review?.verdict)).toEqual(['deny', 'allow', 'deny']);
    expect(s.calls).toEqual([]);
  });

  it('takes the last approval request of a later review, whose input carries the earlier ones', async () => {
    const s = await start();
    await (await post(s, [reviewInput(REVIEW3_COMMANDS[0]!), reviewInput(REVIEW3_COMMANDS[1]!)], GUARDIAN)).text();
    expect(s.requests[0]!.review?.cmd).toBe(REVIEW3_COMMANDS[1]);
  });

  it('knows a reviewer request by its input marker when the header is missing', async () => {
    const s = await start();
    expect(JSON.parse((await replyText(await post(s, [reviewInput(REVIEW_COMMAND)])))!)).toMatchObject({ outcome: 'deny' });
    expect(s.requests.map((r) => r.kind)).toEqual(['review']);
  });

  it('hangs a review on request: the stream starts and stays open until the client drops it', async () => {
    const s = await start({ reviewer: (r) => (r.index === 0 ? { hang: true } : { outcome: 'deny', rationale: 'meanwhile' }) });
    const controller = new AbortController();
    const res = await fetch(`${s.baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', ...GUARDIAN },
      body: JSON.stringify({ input: [reviewInput(REVIEW_COMMAND)], tools: TOOLS }),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const firstChunk = new TextDecoder().decode((await reader.read()).value);
    expect(firstChunk).toContain('response.created');
    const next = reader.read();
    let settled = false;
    void next.then(() => (settled = true), () => (settled = true));
    // Nothing more arrives, while a whole review of another client comes and goes on the same server;
    // the wait ends only when the client gives up (as Codex does on the user's Esc).
    await replyText(await post(s, [reviewInput(REVIEW_COMMAND)], GUARDIAN));
    expect(settled).toBe(false);
    controller.abort();
    await expect(next).rejects.toThrow();
    expect(s.requests.map((r) => r.review?.verdict)).toEqual(['hang', 'deny']);
  });

  it('waits delayMs before the verdict: a review asked later, without a delay, is answered first', async () => {
    const s = await start({ reviewer: (r) => (r.index === 0 ? { outcome: 'allow', rationale: 'later', delayMs: 60_000 } : { outcome: 'deny', rationale: 'at once' }) });
    const order: string[] = [];
    const delayed = post(s, [reviewInput(REVIEW_COMMAND)], GUARDIAN).then(async (res) => {
      const text = await replyText(res);
      order.push('delayed');
      return text;
    });
    await s.waitForRequest((r) => r.kind === 'review', 10_000);
    expect(JSON.parse((await replyText(await post(s, [reviewInput(REVIEW_COMMAND)], GUARDIAN)))!)).toMatchObject({ outcome: 'deny', rationale: 'at once' });
    order.push('prompt');
    expect(order).toEqual(['prompt']);
    void delayed.catch(() => undefined); // the server's close ends it
  });
});

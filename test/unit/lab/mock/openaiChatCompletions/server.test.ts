// The mock OpenAI Chat Completions API, through a real HTTP client (fetch): its token check, the
// wire format of a whole completion and of a stream (bare `data:` lines, `chat.completion.chunk`
// objects, tool_calls deltas by index, `data: [DONE]`), the scenario marker and steps, side calls
// and the proxy guard.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startChatCompletionsServer, type ChatCompletionsServer } from '../../../../../src/lab/mock/openaiChatCompletions/server.js';
import { FINAL_TEXT, SIDE_TEXT, type ChatScenario } from '../../../../../src/lab/mock/openaiChatCompletions/scenarios.js';

const SCENARIOS: Readonly<Record<string, ChatScenario>> = {
  write: [
    {
      type: 'calls',
      text: 'I will write two files.',
      calls: [
        { name: 'write', args: { filePath: 'a.txt', content: 'alpha and a long enough line to need several argument deltas\n' } },
        { name: 'bash', args: { command: 'touch b.txt', description: 'Create b.txt' } },
      ],
    },
  ],
  slow: [{ type: 'text', text: 'one two three', chunkChars: 4 }],
};

let server: ChatCompletionsServer;

beforeEach(async () => {
  server = await startChatCompletionsServer({ scenarios: SCENARIOS });
});

afterEach(async () => {
  await server.close();
});

const TOOLS = [
  { type: 'function', function: { name: 'write', parameters: { type: 'object' } } },
  { type: 'function', function: { name: 'bash', parameters: { type: 'object' } } },
];
const user = (content: string) => ({ role: 'user', content });

function post(body: unknown, token = server.token): Promise<Response> {
  return fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: unknown;
}

/** The events of a stream, checked for the framing on the way: `data: <json>` blocks, then `data: [DONE]`. */
function dataLines(text: string): Chunk[] {
  const blocks = text.split('\n\n');
  expect(blocks.at(-1)).toBe('');
  expect(blocks.at(-2)).toBe('data: [DONE]');
  return blocks.slice(0, -2).map((b) => {
    expect(b).toMatch(/^data: \{/);
    expect(b).not.toContain('\n');
    return JSON.parse(b.slice('data: '.length)) as Chunk;
  });
}

describe('the mock Chat Completions API', () => {
  it('listens on 127.0.0.1 and refuses a wrong or missing token with 401, recording both', async () => {
    expect(new URL(server.baseUrl).hostname).toBe('127.0.0.1');
    const wrong = await post({ messages: [user('hi')], tools: TOOLS }, 'sk-wrong');
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    const none = await fetch(`${server.baseUrl}/chat/completions`, { method: 'POST', body: '{}' });
    expect(none.status).toBe(401);
    expect(server.requests.map((r) => r.kind)).toEqual(['unauthorized', 'unauthorized']);
  });

  it('answers a whole completion: chat.completion with the text and finish_reason stop', async () => {
    const res = await post({ model: 'm1', messages: [user('[[scenario:say]] hello there')], tools: TOOLS });
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'm1',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Noted: hello there' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
    expect(body.id).toMatch(/^chatcmpl_/);
    expect(server.requests.map((r) => [r.kind, r.scenario, r.step])).toEqual([['turn', 'say', 0]]);
  });

  it('answers a whole completion with tool_calls: content, ids, JSON arguments, finish_reason tool_calls', async () => {
    const res = await post({ messages: [user('[[scenario:write]]')], tools: TOOLS });
    const body = (await res.json()) as { choices: { message: { content: unknown; tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[] }; finish_reason: string }[] };
    const [choice] = body.choices;
    expect(choice!.finish_reason).toBe('tool_calls');
    expect(choice!.message.content).toBe('I will write two files.');
    expect(choice!.message.tool_calls.map((c) => [c.id, c.type, c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      [server.calls[0]!.id, 'function', 'write', { filePath: 'a.txt', content: 'alpha and a long enough line to need several argument deltas\n' }],
      [server.calls[1]!.id, 'function', 'bash', { command: 'touch b.txt', description: 'Create b.txt' }],
    ]);
    expect(server.calls.map((c) => c.scenario)).toEqual(['write', 'write']);
  });

  it('streams text as chat.completion.chunk data lines: the role first, content deltas, finish_reason stop, [DONE]', async () => {
    const res = await post({ model: 'm2', stream: true, messages: [user('[[scenario:slow]]')], tools: TOOLS });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const chunks = dataLines(await res.text());
    expect(new Set(chunks.map((c) => c.object))).toEqual(new Set(['chat.completion.chunk']));
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(new Set(chunks.map((c) => c.model))).toEqual(new Set(['m2']));
    expect(chunks.map((c) => c.choices[0]!.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'one ' },
      { content: 'two ' },
      { content: 'thre' },
      { content: 'e' },
      {},
    ]);
    expect(chunks.map((c) => c.choices[0]!.finish_reason)).toEqual([null, null, null, null, null, 'stop']);
  });

  it('streams tool_calls: a delta with index, id, type and name opens each call, its arguments follow in pieces', async () => {
    const res = await post({ stream: true, messages: [user('[[scenario:write]] go')], tools: TOOLS });
    const chunks = dataLines(await res.text());
    const deltas = chunks.map((c) => c.choices[0]!.delta);
    const callDeltas = deltas.flatMap((d) => (d.tool_calls as { index: number; id?: string; type?: string; function: { name?: string; arguments: string } }[] | undefined) ?? []);
    const opening = callDeltas.filter((d) => d.id !== undefined);
    expect(opening).toEqual([
      { index: 0, id: server.calls[0]!.id, type: 'function', function: { name: 'write', arguments: '' } },
      { index: 1, id: server.calls[1]!.id, type: 'function', function: { name: 'bash', arguments: '' } },
    ]);
    // Every delta holds one call; the pieces after the opening name only the index and arguments.
    expect(deltas.filter((d) => d.tool_calls !== undefined).every((d) => (d.tool_calls as unknown[]).length === 1)).toBe(true);
    const pieces = callDeltas.filter((d) => d.id === undefined);
    expect(pieces.every((d) => Object.keys(d).sort().join() === 'function,index' && Object.keys(d.function).join() === 'arguments')).toBe(true);
    expect(pieces.filter((d) => d.index === 0).length).toBeGreaterThan(1);
    const joined = [0, 1].map((i) => JSON.parse(callDeltas.filter((d) => d.index === i).map((d) => d.function.arguments).join('')) as unknown);
    expect(joined).toEqual([
      { filePath: 'a.txt', content: 'alpha and a long enough line to need several argument deltas\n' },
      { command: 'touch b.txt', description: 'Create b.txt' },
    ]);
    // The text comes before the calls, and the last chunk closes the message with tool_calls.
    expect(deltas.slice(0, 2)).toEqual([{ role: 'assistant', content: '' }, { content: 'I will write two files.' }]);
    expect(chunks.at(-1)!.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'tool_calls' });
  });

  it('sends a usage chunk with no choices before [DONE] when stream_options.include_usage asks for it', async () => {
    const res = await post({ stream: true, stream_options: { include_usage: true }, messages: [user('[[scenario:say]] hi')], tools: TOOLS });
    const chunks = dataLines(await res.text());
    expect(chunks.at(-1)).toMatchObject({ object: 'chat.completion.chunk', choices: [], usage: { total_tokens: 20 } });
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('takes the step from the tool-call rounds after the prompt and records the tool results it is told', async () => {
    const first = (await (await post({ messages: [user('[[scenario:write]]')], tools: TOOLS })).json()) as { choices: { message: { tool_calls: { id: string }[] } }[] };
    const [a, b] = first.choices[0]!.message.tool_calls;
    const messages = [
      user('[[scenario:write]]'),
      { role: 'assistant', content: null, tool_calls: first.choices[0]!.message.tool_calls },
      { role: 'tool', tool_call_id: a!.id, content: 'written' },
      { role: 'tool', tool_call_id: b!.id, content: [{ type: 'text', text: 'rejected by the user' }] },
    ];
    const second = (await (await post({ messages, tools: TOOLS })).json()) as { choices: { message: { content: string } }[] };
    expect(second.choices[0]!.message.content).toBe(FINAL_TEXT);
    expect(server.requests.at(-1)).toMatchObject({
      kind: 'turn',
      scenario: 'write',
      step: 1,
      toolResults: [
        { tool_call_id: a!.id, content: 'written' },
        { tool_call_id: b!.id, content: 'rejected by the user' },
      ],
    });
  });

  it('answers a request without tools as a side call, and an unknown scenario by naming it', async () => {
    const side = (await (await post({ messages: [user('[[scenario:write]] title this')] })).json()) as { choices: { message: { content: string } }[] };
    expect(side.choices[0]!.message.content).toBe(SIDE_TEXT);
    const unknown = (await (await post({ messages: [user('[[scenario:nope]]')], tools: TOOLS })).json()) as { choices: { message: { content: string } }[] };
    expect(unknown.choices[0]!.message.content).toBe('mock: unknown scenario nope');
    expect(server.requests.map((r) => r.kind)).toEqual(['side', 'turn']);
    expect(server.calls).toEqual([]);
  });

  it('lists its model and answers an unknown path with 404', async () => {
    const models = await fetch(`${server.baseUrl}/models`, { headers: { authorization: `Bearer ${server.token}` } });
    expect(await models.json()).toMatchObject({ object: 'list', data: [{ id: 'mock-model', object: 'model' }] });
    const missing = await fetch(`${server.baseUrl}/embeddings`, { method: 'POST', headers: { authorization: `Bearer ${server.token}` }, body: '{}' });
    expect(missing.status).toBe(404);
    expect(server.requests.map((r) => r.kind)).toEqual(['models', 'other']);
  });

  it('refuses a proxy request (absolute URI) and a CONNECT, recording both as escapes', async () => {
    const proxied = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, method: 'GET', path: 'http://example.com/' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(proxied).toBe(403);
    const tunnel = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, method: 'CONNECT', path: 'example.com:443' });
      req.on('connect', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(tunnel).toBe(403);
    expect(server.requests.map((r) => [r.kind, r.method, r.path])).toEqual([
      ['escape', 'GET', 'http://example.com/'],
      ['escape', 'CONNECT', 'example.com:443'],
    ]);
  });
});

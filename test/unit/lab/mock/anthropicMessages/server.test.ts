// The mock Anthropic Messages API the Claude Code e2e suite talks to: its key check, the SSE order
// Claude Code parses, the scenario steps, the side endpoints, the dropped-stream note, the auto-mode
// classifier's verdicts and the proxy guard.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FINAL_PREFIX } from '../../../../../src/lab/mock/anthropicMessages/scenarios.js';
import { startMessagesServer, type MessagesServer } from '../../../../../src/lab/mock/anthropicMessages/server.js';

let server: MessagesServer;

beforeEach(async () => {
  server = await startMessagesServer();
});

afterEach(async () => {
  await server.close();
});

function post(path: string, body: unknown, key = server.token): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const TOOLS = [{ name: 'Bash', input_schema: {} }];
const prompt = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const SYSTEM = [{ type: 'text', text: 'Primary working directory: /w/work' }];

/** The `data:` objects of an SSE body, in order. */
function events(text: string): { type: string; [k: string]: unknown }[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim())
    .map((chunk) => JSON.parse(chunk.split('\n').find((l) => l.startsWith('data: '))!.slice(6)) as { type: string });
}

describe('the mock Messages API', () => {
  it('refuses a wrong key with 401 and records it', async () => {
    const res = await post('/v1/messages', { messages: [prompt('SCENARIO bash')], tools: TOOLS }, 'sk-wrong');
    expect(res.status).toBe(401);
    expect(server.requests.map((r) => r.kind)).toEqual(['unauthorized']);
  });

  it('streams a Bash call in the order Claude Code parses, then a final text naming the tool result', async () => {
    const res = await post('/v1/messages', { model: 'm', stream: true, system: SYSTEM, messages: [prompt('SCENARIO bash')], tools: TOOLS });
    const evs = events(await res.text());
    expect(evs.map((e) => e.type)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const [id] = server.toolUseIds;
    expect(evs[5]).toMatchObject({ content_block: { type: 'tool_use', id, name: 'Bash' } });
    expect(JSON.parse((evs[6] as unknown as { delta: { partial_json: string } }).delta.partial_json)).toEqual({ command: 'echo mock-bash-ran > bash-out.txt', description: 'Write a marker file' });
    expect(evs[8]).toMatchObject({ delta: { stop_reason: 'tool_use' } });

    const after = await post('/v1/messages', {
      messages: [
        prompt('SCENARIO bash'),
        { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'no', is_error: true }] },
      ],
      tools: TOOLS,
    });
    const message = (await after.json()) as { content: { text: string }[]; stop_reason: string };
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content[0]!.text).toBe(`${FINAL_PREFIX} 1 tool result(s): ${id} ERROR`);
    expect(server.requests.map((r) => [r.kind, r.scenario, r.step])).toEqual([
      ['turn', 'bash', 0],
      ['turn', 'bash', 1],
    ]);
  });

  it('puts the work dir from the request into file paths (the edit scenario reads, then edits)', async () => {
    const res = await post('/v1/messages', { system: SYSTEM, messages: [prompt('SCENARIO edit')], tools: TOOLS });
    const message = (await res.json()) as { content: { type: string; input?: unknown }[] };
    expect(message.content.find((b) => b.type === 'tool_use')?.input).toEqual({ file_path: '/w/work/notes.txt' });
  });

  it('answers count_tokens and models, and 404s anything else', async () => {
    expect(((await (await post('/v1/messages/count_tokens', { messages: [] })).json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    const models = await fetch(`${server.baseUrl}/v1/models`, { headers: { 'x-api-key': server.token } });
    expect(((await models.json()) as { data: unknown[] }).data).toHaveLength(1);
    expect((await post('/v1/other', {})).status).toBe(404);
    expect(server.requests.map((r) => r.kind)).toEqual(['count_tokens', 'models', 'other']);
  });

  it('notes a slow stream the client dropped', async () => {
    const ac = new AbortController();
    const res = await fetch(`${server.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': server.token },
      body: JSON.stringify({ stream: true, messages: [prompt('SCENARIO slowtext')], tools: TOOLS }),
      signal: ac.signal,
    });
    const reader = res.body!.getReader();
    await server.waitForStream((n) => n.chunks >= 2, 10_000);
    ac.abort();
    await reader.read().catch(() => undefined);
    const note = await server.waitForStream((n) => n.event === 'client_aborted_stream', 10_000);
    expect(note.chunks).toBeGreaterThanOrEqual(2);
  });

  it('answers a turn that asks for the auto-mode classifier with a verdict per tool_use in message_delta, and notes it', async () => {
    const safeguards = [{ type: 'dangerous_tool_use', classifier_context: { v: 1, permission_mode: 'auto' } }];
    const res = await post('/v1/messages', { stream: true, system: SYSTEM, messages: [prompt('SCENARIO parallel')], tools: TOOLS, safeguards });
    const delta = events(await res.text()).find((e) => e.type === 'message_delta') as unknown as { delta: Record<string, unknown> };
    const ids = server.toolUseIds;
    expect(ids).toHaveLength(3);
    expect(delta.delta).toEqual({
      stop_reason: 'tool_use',
      stop_sequence: null,
      safeguard_results: [
        { type: 'dangerous_tool_use', status: { type: 'available', tool_uses: Object.fromEntries(ids.map((id) => [id, { type: 'evaluated', outcome: 'not_flagged' }])) } },
      ],
    });
    expect(server.verdicts.map((v) => [v.toolUseId, v.index, v.verdict])).toEqual(ids.map((id, i) => [id, i, { outcome: 'not_flagged' }]));
    expect(server.requests.map((r) => r.safeguards)).toEqual([true]);
  });

  it('sends no safeguard_results to a turn without safeguards', async () => {
    const res = await post('/v1/messages', { stream: true, system: SYSTEM, messages: [prompt('SCENARIO bash')], tools: TOOLS });
    const delta = events(await res.text()).find((e) => e.type === 'message_delta') as unknown as { delta: Record<string, unknown> };
    expect(delta.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
    expect(server.verdicts).toEqual([]);
    expect(server.requests.map((r) => r.safeguards)).toEqual([undefined]);
  });

  it('sends the verdicts a test scripts: flagged with its explanation, unavailable, omitted, and none when all are omitted', async () => {
    await server.close();
    const script = [{ outcome: 'flagged', explanation: 'not asked for' }, 'unavailable', 'omit', 'omit'] as const;
    const seen: unknown[] = [];
    server = await startMessagesServer({
      classifier: (call) => {
        seen.push(call);
        return script[call.index]!;
      },
    });
    const safeguards = [{ type: 'dangerous_tool_use' }];
    const res = await post('/v1/messages', { stream: true, system: SYSTEM, messages: [prompt('SCENARIO parallel')], tools: TOOLS, safeguards });
    const first = events(await res.text()).find((e) => e.type === 'message_delta') as unknown as { delta: { safeguard_results: unknown } };
    const [a, b] = server.toolUseIds;
    expect(first.delta.safeguard_results).toEqual([
      { type: 'dangerous_tool_use', status: { type: 'available', tool_uses: { [a!]: { type: 'evaluated', outcome: 'flagged', explanation: 'not asked for' }, [b!]: { type: 'unavailable', reason: 'error' } } } },
    ]);
    expect(seen[0]).toEqual({ name: 'Bash', input: { command: 'echo one > p1.txt', description: 'Write p1.txt' }, index: 0 });
    // The fourth call is alone in its reply and omitted: no safeguard_results at all (the "can't check" case).
    const again = await post('/v1/messages', { stream: true, system: SYSTEM, messages: [prompt('SCENARIO bash')], tools: TOOLS, safeguards });
    const second = events(await again.text()).find((e) => e.type === 'message_delta') as unknown as { delta: Record<string, unknown> };
    expect(second.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
    expect(server.verdicts.map((v) => v.verdict)).toEqual(script);
  });

  it('refuses and records CONNECT and absolute-URI requests (the proxy guard)', async () => {
    const connect = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, method: 'CONNECT', path: 'example.com:443' });
      req.on('connect', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(connect).toBe(403);
    const absolute = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, method: 'GET', path: 'http://example.com/x' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(absolute).toBe(403);
    expect(server.requests.map((r) => [r.kind, r.method, r.path])).toEqual([
      ['escape', 'CONNECT', 'example.com:443'],
      ['escape', 'GET', 'http://example.com/x'],
    ]);
  });
});

#!/usr/bin/env node
// @ts-check
// A minimal MCP server over stdio (newline-delimited JSON-RPC 2.0) for the Gemini e2e: one tool,
// `touch_marker`, which creates the named file in the working folder, so a test can tell whether a
// call ran. Unknown methods get JSON-RPC's "method not found"; notifications get no answer.
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';

const TOOL = {
  name: 'touch_marker',
  description: 'Create an empty marker file with the given name in the working folder.',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

function answer(id, result) {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n');
}

function fail(id, code, message) {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }) + '\n');
}

function handle(message) {
  const { id, method, params } = message;
  if (id === undefined) return;
  switch (method) {
    case 'initialize':
      return answer(id, { protocolVersion: params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'rec-marker', version: '1.0.0' } });
    case 'ping':
      return answer(id, {});
    case 'tools/list':
      return answer(id, { tools: [TOOL] });
    case 'tools/call': {
      const name = basename(String(params?.arguments?.name ?? 'marker.txt'));
      writeFileSync(join(process.cwd(), name), '');
      return answer(id, { content: [{ type: 'text', text: `created ${name}` }] });
    }
    default:
      return fail(id, -32601, `method not found: ${method}`);
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return;
  try {
    handle(JSON.parse(line));
  } catch {
    // Not JSON: nothing to answer.
  }
});

// Codex's own rollout read for the tests (unit replays, merge, e2e), so a test can compare it with
// the sidecar's rows (test/support/sidecarRows.ts, the one sidecar-rows helper) by call_id.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { harnessRefusalOf } from '../../../src/agents/codex/harnessRefusal.js';
import { outputText, toolNameOf } from '../../../src/agents/codex/sessionRecords.js';
import { LATEST_CODEX_STRINGS } from '../../../src/agents/codex/strings/index.js';

/** What Codex writes as the last line of a call the user refused: at its prompt, or at an MCP tool's form. */
export const REFUSED_OUTPUT = /(?:aborted by user|user cancelled MCP tool call)\s*$/;

const RolloutLine = z.object({ type: z.string(), payload: z.record(z.string(), z.unknown()) }).loose();

export interface RolloutCall {
  readonly callId: string;
  readonly name: string;
  /** The parsed JSON arguments (what rec stores as tool_input). */
  readonly args: Record<string, unknown>;
  readonly output?: string;
  /** The rollout itself says the call ran: a CommandExecution item completed, or a real output. */
  readonly ranPerRollout: boolean;
}

/** The function calls of a rollout file with their outputs, in order. */
export function readRolloutCalls(file: string): RolloutCall[] {
  const calls = new Map<string, { callId: string; name: string; args: Record<string, unknown>; output?: string; ranPerRollout: boolean }>();
  const completed = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const parsed = RolloutLine.safeParse(JSON.parse(line));
    if (!parsed.success) continue;
    const p = parsed.data.payload;
    if (parsed.data.type === 'event_msg' && p.type === 'item_completed') {
      const item = p.item as { id?: unknown; status?: unknown; type?: unknown } | undefined;
      // A failed command ran (its exit code was not 0); a failed MCP call is one the user cancelled.
      const ran = item?.status === 'completed' || (item?.status === 'failed' && item.type !== 'McpToolCall');
      if (typeof item?.id === 'string' && ran) completed.add(item.id);
      continue;
    }
    if (parsed.data.type !== 'response_item') continue;
    if (p.type === 'function_call' && typeof p.call_id === 'string') {
      calls.set(p.call_id, { callId: p.call_id, name: toolNameOf({ name: String(p.name), ...(typeof p.namespace === 'string' ? { namespace: p.namespace } : {}) }), args: JSON.parse(String(p.arguments)) as Record<string, unknown>, ranPerRollout: false });
    } else if (p.type === 'function_call_output' && typeof p.call_id === 'string') {
      const call = calls.get(p.call_id);
      if (call) call.output = outputText(p.output) ?? '';
    }
  }
  for (const call of calls.values()) {
    // Refused before it ran (a reviewer's, a hook's or a rule's refusal) is not a real output either.
    const refused = call.output !== undefined && harnessRefusalOf(call.output, LATEST_CODEX_STRINGS) !== undefined;
    call.ranPerRollout = completed.has(call.callId) || (call.output !== undefined && !REFUSED_OUTPUT.test(call.output) && !refused);
  }
  return [...calls.values()];
}

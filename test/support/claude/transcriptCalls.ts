// Claude Code's own transcript read for the e2e suite, so a test can compare the sidecar's rows with
// it by tool_use id: each tool_use block (id, name, input) and the user line that answered it, with
// the 2.1.3xx fields that say how (toolDenialKind, toolDenialBeforeRun, permissionDecision, …).
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const Block = z.object({ type: z.string() }).loose();
const Line = z
  .object({
    type: z.string(),
    message: z.object({ id: z.string().optional(), content: z.union([z.string(), z.array(Block)]) }).loose().optional(),
    toolUseResult: z.unknown().optional(),
    toolDenialKind: z.string().optional(),
    toolDenialBeforeRun: z.boolean().optional(),
    permissionDecision: z.record(z.string(), z.unknown()).optional(),
    userFeedback: z.string().optional(),
    interruptedMessageId: z.string().optional(),
    isAbortedMidStream: z.boolean().optional(),
  })
  .loose();
type Line = z.infer<typeof Line>;

const ToolUse = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) });
const ToolResult = z.object({ type: z.literal('tool_result'), tool_use_id: z.string(), content: z.unknown(), is_error: z.boolean().optional() });

export interface TranscriptCall {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** The user line holding this call's tool_result, if one came. */
  readonly result?: {
    readonly content: string;
    readonly isError: boolean;
    readonly line: Line;
  };
}

export interface TranscriptText {
  /** `[Request interrupted by user]` and `[Request interrupted by user for tool use]` lines. */
  readonly interrupts: readonly { text: string; interruptedMessageId?: string }[];
  /** Assistant lines cut by Esc (`isAbortedMidStream`), with their text. */
  readonly aborted: readonly { messageId?: string; text: string }[];
}

export function readTranscript(file: string): { calls: TranscriptCall[] } & TranscriptText {
  const calls = new Map<string, TranscriptCall>();
  const interrupts: { text: string; interruptedMessageId?: string }[] = [];
  const aborted: { messageId?: string; text: string }[] = [];
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    if (!raw.trim()) continue;
    const parsed = Line.safeParse(JSON.parse(raw));
    if (!parsed.success || !parsed.data.message) continue;
    const line = parsed.data;
    const content = line.message!.content;
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    if (line.type === 'assistant') {
      if (line.isAbortedMidStream) aborted.push({ messageId: line.message!.id, text: blocks.map((b) => (typeof b.text === 'string' ? b.text : '')).join('') });
      for (const b of blocks) {
        const use = ToolUse.safeParse(b);
        if (use.success) calls.set(use.data.id, { id: use.data.id, name: use.data.name, input: use.data.input });
      }
    } else if (line.type === 'user') {
      for (const b of blocks) {
        const result = ToolResult.safeParse(b);
        if (result.success) {
          const call = calls.get(result.data.tool_use_id);
          if (call) calls.set(call.id, { ...call, result: { content: textOf(result.data.content), isError: result.data.is_error === true, line } });
        } else if (b.type === 'text' && typeof b.text === 'string' && b.text.startsWith('[Request interrupted by user')) {
          interrupts.push({ text: b.text, ...(line.interruptedMessageId ? { interruptedMessageId: line.interruptedMessageId } : {}) });
        }
      }
    }
  }
  return { calls: [...calls.values()], interrupts, aborted };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c: unknown) => (typeof c === 'object' && c !== null && 'text' in c && typeof c.text === 'string' ? c.text : '')).join('');
}

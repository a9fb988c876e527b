// Gemini's session files, copied live: Gemini 0.61.0 appends to ~/.gemini/tmp/<slug>/chats/session-*.jsonl,
// wipes the conversation with a `$set` record after a deny-only turn and deletes the whole file at exit
// (README §0, G2). A test or the fixture recorder keeps the last content of each file seen, sampled
// every SAMPLE_MS, and reads the tool calls from that copy with zod.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { waitUntil } from '../../../src/lab/pollUntil.js';
import { listSessionFiles } from './env.js';

/** How often the chats dir is sampled: Gemini writes each record in one call, well apart from its deletion at exit. */
const SAMPLE_MS = 20;

const FunctionResponse = z.object({ id: z.string().optional(), name: z.string(), response: z.record(z.string(), z.unknown()) }).loose();
const ToolCall = z
  .object({
    id: z.string(),
    name: z.string(),
    args: z.record(z.string(), z.unknown()),
    status: z.string(),
    result: z.array(z.object({ functionResponse: FunctionResponse.optional() }).loose()).optional(),
  })
  .loose();
const Message = z.object({ id: z.string(), type: z.string(), content: z.unknown().optional(), toolCalls: z.array(ToolCall).optional() }).loose();

export interface SessionToolCall {
  /** As the session file spells it: `<name>__<rawId>`. */
  readonly callId: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** `success`, `cancelled`, `error`, … (terminal states only are written). */
  readonly status: string;
  /** `functionResponse.response.error`, e.g. "[Operation Cancelled] Reason: User denied execution." */
  readonly error?: string;
  readonly output?: string;
}

export class SessionSnapshots {
  /** The last content seen of each session file, by path (kept after Gemini deletes the file). */
  readonly contents = new Map<string, string>();
  private readonly _timer: NodeJS.Timeout;

  constructor(private readonly _chatsDir: string) {
    this._timer = setInterval(() => this.sample(), SAMPLE_MS);
    this._timer.unref();
  }

  sample(): void {
    for (const file of listSessionFiles(this._chatsDir)) {
      try {
        const text = readFileSync(file, 'utf8');
        if (text !== '') this.contents.set(file, text);
      } catch {
        // ENOENT: Gemini deleted it between the listing and the read; the last copy stays.
      }
    }
  }

  /** The one session file of the run (its last content), or an error naming what was found. */
  only(): { file: string; text: string } {
    this.sample();
    if (this.contents.size !== 1) throw new Error(`expected one Gemini session file in ${this._chatsDir}, saw ${[...this.contents.keys()].map((f) => basename(f)).join(', ') || 'none'}`);
    const [file, text] = [...this.contents.entries()][0]!;
    return { file, text };
  }

  /** The tool calls of the session in order, each in its last written state (a message re-appended with its id wins). */
  toolCalls(): SessionToolCall[] {
    if (this.contents.size === 0) this.sample();
    if (this.contents.size === 0) return [];
    return readToolCalls(this.only().text);
  }

  /** Waits until the session file holds `n` tool calls (their terminal state is written when the batch resolves). */
  waitForToolCalls(n: number, timeoutMs: number): Promise<SessionToolCall[]> {
    return waitUntil(() => {
      this.sample();
      const calls = this.contents.size === 1 ? this.toolCalls() : [];
      return calls.length >= n ? calls : undefined;
    }, { what: `${n} tool calls in the Gemini session file`, timeoutMs, last: () => `${this.contents.size} file(s)` });
  }

  stop(): void {
    clearInterval(this._timer);
  }
}

export function readToolCalls(jsonl: string): SessionToolCall[] {
  const byMessage = new Map<string, SessionToolCall[]>();
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    const parsed = Message.safeParse(JSON.parse(line));
    if (!parsed.success || !parsed.data.toolCalls) continue;
    // Map order is first-insertion order: a message updated later keeps its place.
    byMessage.set(parsed.data.id, parsed.data.toolCalls.map(toSessionCall));
  }
  return [...byMessage.values()].flat();
}

function toSessionCall(c: z.infer<typeof ToolCall>): SessionToolCall {
  const response = c.result?.[0]?.functionResponse?.response;
  const error = typeof response?.error === 'string' ? response.error : undefined;
  const output = typeof response?.output === 'string' ? response.output : undefined;
  return { callId: c.id, name: c.name, args: c.args, status: c.status, ...(error !== undefined ? { error } : {}), ...(output !== undefined ? { output } : {}) };
}

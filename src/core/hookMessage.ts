// A message forwarded from a hook command the agent ran (`rec hook <agent> <event>`) to the run.
import { z } from 'zod';
import { AgentName } from './events.js';

/** Hook payloads are bounded: anything larger is dropped and counted by the channel. */
export const MAX_HOOK_MESSAGE_BYTES = 1024 * 1024;

export const HookMessage = z.object({
  agent: AgentName,
  /** The agent's hook event name as configured, e.g. PreToolUse, Interrupt, BeforeTool. */
  event: z.string().min(1).max(100),
  /** The JSON the agent wrote to the hook's stdin, parsed; validated further by the adapter. */
  payload: z.unknown(),
  /** When the hook command started, ISO 8601. */
  sent_at: z.string(),
});
export type HookMessage = z.infer<typeof HookMessage>;

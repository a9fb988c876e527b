// What Gemini CLI 0.61.0 writes to a command hook's stdin (docs/gemini.md, "Hooks").
// Every event carries session_id and transcript_path (the chat file); none carries a call id.
// Only the fields used are declared.
import { z } from 'zod';

export const GeminiHookPayload = z.looseObject({
  session_id: z.string().optional(),
  transcript_path: z.string().optional(),
  hook_event_name: z.string().optional(),
  prompt: z.string().optional(),
});
export type GeminiHookPayload = z.infer<typeof GeminiHookPayload>;

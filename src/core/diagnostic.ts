// What a reader, the sidecar or merge could not read or join, with file and line: one shape for
// every layer that reports (`diagnostics[]` of a merged session).
import { z } from 'zod';

export const Diagnostic = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  code: z.enum([
    'invalid_json',
    'truncated_line',
    'invalid_record',
    'unreadable_file',
    'missing_file',
    'unknown_version',
    'unknown_format',
    'sidecar_unavailable',
    'sidecar_unmatched',
    /** A decision rec recorded (a sidecar event) that could not be read: the result is incomplete. */
    'decision_unreadable',
    /**
     * A decision the agent's file shows a person took on a call that rec saw no prompt or key for
     * (a sidecar `miss` event: its screen as last seen is there).
     */
    'miss',
    'empty_file',
    'internal_error',
  ]),
  message: z.string(),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
});
export type Diagnostic = z.infer<typeof Diagnostic>;

/** Exit status of a command whose result is incomplete: recorded rows or decisions could not be read. */
export const INCOMPLETE_EXIT_STATUS = 3;

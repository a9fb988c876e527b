// Claude Code 2.1.332: the texts of 2.1.330, unchanged on screen and in the transcript (checked by the
// real-CLI e2e suite on 2.1.332 and by its recorded fixtures, test/fixtures/claude/2.1.332).
import type { ClaudeStrings } from './schema.js';
import { CLAUDE_2_1_330 } from './v2_1_330.js';

export const CLAUDE_2_1_332: ClaudeStrings = { ...CLAUDE_2_1_330, version: '2.1.332' };

// Codex CLI 0.171.0: the texts of 0.169.0, unchanged on screen and in the rollout (checked by the
// real-CLI e2e suite on 0.171.0 and by its recorded fixtures, test/fixtures/codex/0.171.0).
import type { CodexStrings } from './schema.js';
import { CODEX_0_169_0 } from './v0_169_0.js';

export const CODEX_0_171_0: CodexStrings = { ...CODEX_0_169_0, version: '0.171.0' };

import { describe, expect, it } from 'vitest';
import { MAX_HOOK_MESSAGE_BYTES } from '../../../src/core/hookMessage.js';
import { hookStdoutFor } from '../../../src/agents/registry.js';
import { HOOK_MESSAGE_LIMIT_BYTES } from '../../../src/hooks/hookProtocol.js';

describe('hook protocol', () => {
  it('the client-side size limit mirrors MAX_HOOK_MESSAGE_BYTES', () => {
    expect(HOOK_MESSAGE_LIMIT_BYTES).toBe(MAX_HOOK_MESSAGE_BYTES);
  });

  it('answers each agent as its hook protocol wants', () => {
    expect(hookStdoutFor('codex')).toBe('');
    expect(hookStdoutFor('claude')).toBe('');
    expect(JSON.parse(hookStdoutFor('gemini'))).toEqual({});
    expect(hookStdoutFor('nobody')).toBe('');
    expect(hookStdoutFor('toString')).toBe('');
    expect(hookStdoutFor(undefined)).toBe('');
  });
});

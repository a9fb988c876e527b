// What the hook client (`rec hook`) and the per-run hook server agree on. This module has no
// dependencies (no zod, no ws): the hook command runs once per agent hook and must start fast.

/** Environment variables the agent inherits from `rec` and passes down to the hook commands it runs. */
export const HOOK_URL_ENV = 'REC_HOOK_URL';
export const HOOK_TOKEN_ENV = 'REC_HOOK_TOKEN';

/** The only path the server upgrades. Anything else is refused like a bad token. */
export const HOOK_PATH = '/rec-hook';

/**
 * The token travels in this request header as `Bearer <token>` during the upgrade: a header is
 * not echoed back (a subprotocol would be) and neither side ever logs it.
 */
export const HOOK_AUTH_HEADER = 'authorization';
export const HOOK_AUTH_SCHEME = 'Bearer ';

/**
 * Mirrors MAX_HOOK_MESSAGE_BYTES in src/core/hookMessage.ts, copied here so that the hook command
 * does not load zod (a test asserts the two are equal). The client sends nothing larger; the server
 * enforces the same bound with ws maxPayload.
 */
export const HOOK_MESSAGE_LIMIT_BYTES = 1024 * 1024;

/** The server's reply to each message, as one text frame. */
export const HOOK_ACK = '{"ack":true}';
/** The server's reply to a message it dropped (not JSON, not a HookMessage, binary). */
export const HOOK_NACK = '{"ack":false}';

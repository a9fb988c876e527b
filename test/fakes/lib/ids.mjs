// @ts-check
// Identifier shapes the real agents use, generated locally.
import { randomBytes } from 'node:crypto';

/** A UUIDv7 (time-ordered), the shape Codex 0.169.0 uses for session, turn and message ids. */
export function uuidV7(now = Date.now()) {
  const b = randomBytes(16);
  const ms = BigInt(now);
  for (let i = 0; i < 6; i++) b[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `n` random lowercase hex characters (Codex `call_<16 hex>`, `fc_<16 hex>`). */
export function hex(n) {
  return randomBytes(Math.ceil(n / 2)).toString('hex').slice(0, n);
}

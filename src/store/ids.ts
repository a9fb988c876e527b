// Ids for runs and events: 128 random bits in lowercase Crockford base32 (26 characters).
// Random from the first character on, so the first 8 characters (40 bits) tell ids apart in
// practice and serve as short ids; ordering comes from the timestamp columns, not from ids.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const ID_LENGTH = 26;
/** How many characters `rec runs` / `rec events` show; a unique prefix is accepted back by --run. */
export const SHORT_ID_LENGTH = 8;

/** Random bytes are drawn in batches: one getrandom call per 256 ids keeps an id under a microsecond. */
const POOL_IDS = 256;
const BYTES_PER_ID = 17; // 26 characters × 5 bits = 130 bits; the top 2 bits of the last byte are unused
const pool = Buffer.alloc(POOL_IDS * BYTES_PER_ID);
let poolOffset = pool.length;

export function newId(): string {
  if (poolOffset + BYTES_PER_ID > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let id = '';
  let bits = 0;
  let value = 0;
  let byteIndex = poolOffset;
  while (id.length < ID_LENGTH) {
    if (bits < 5) {
      value = (value << 8) | pool[byteIndex++]!;
      bits += 8;
    }
    bits -= 5;
    id += ALPHABET[(value >>> bits) & 31];
    value &= (1 << bits) - 1;
  }
  poolOffset += BYTES_PER_ID;
  return id;
}

export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_LENGTH);
}

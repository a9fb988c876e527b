import { describe, expect, it } from 'vitest';
import { ID_LENGTH, newId, shortId, SHORT_ID_LENGTH } from '../../../src/store/ids.js';

describe('newId', () => {
  it('makes 26-character lowercase base32 ids, all distinct', () => {
    const ids = Array.from({ length: 100_000 }, newId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 1000)) expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    expect(ids[0]).toHaveLength(ID_LENGTH);
  });
  it('is random from the first character, so short ids of ids made together differ', () => {
    const shorts = Array.from({ length: 10_000 }, () => shortId(newId()));
    expect(shorts[0]).toHaveLength(SHORT_ID_LENGTH);
    expect(new Set(shorts).size).toBe(shorts.length);
    // Every first character occurs: the prefix is not a clock that advances slowly.
    expect(new Set(shorts.map((s) => s[0])).size).toBe(32);
  });
});

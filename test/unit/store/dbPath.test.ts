import { describe, expect, it } from 'vitest';
import { resolveDbPath } from '../../../src/store/dbPath.js';

describe('resolveDbPath', () => {
  const home = '/home/u';
  it('prefers --db, then REC_DB, then XDG_DATA_HOME, then ~/.local/share', () => {
    const env = { REC_DB: '/e/rec.db', XDG_DATA_HOME: '/x' };
    expect(resolveDbPath({ flag: '/f/my.db', env, home })).toBe('/f/my.db');
    expect(resolveDbPath({ env, home })).toBe('/e/rec.db');
    expect(resolveDbPath({ env: { XDG_DATA_HOME: '/x' }, home })).toBe('/x/rec/rec.db');
    expect(resolveDbPath({ env: {}, home })).toBe('/home/u/.local/share/rec/rec.db');
  });
  it('resolves a relative --db or REC_DB against cwd, and ignores empty or relative XDG_DATA_HOME', () => {
    expect(resolveDbPath({ flag: 'a.db', env: {}, cwd: '/c', home })).toBe('/c/a.db');
    expect(resolveDbPath({ env: { REC_DB: 'b.db' }, cwd: '/c', home })).toBe('/c/b.db');
    expect(resolveDbPath({ flag: '', env: { REC_DB: '', XDG_DATA_HOME: '' }, home })).toBe('/home/u/.local/share/rec/rec.db');
    expect(resolveDbPath({ env: { XDG_DATA_HOME: 'rel' }, home })).toBe('/home/u/.local/share/rec/rec.db');
  });
});

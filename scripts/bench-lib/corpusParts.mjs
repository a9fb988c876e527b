// @ts-check
// The pieces every agent's generator of the merge benchmark's corpus shares (scripts/gen-corpus.mjs
// and the generators beside it): ids, times and the commands the calls run.

/** A random UUID v4-shaped id from the corpus's seeded generator (createRng in gen-corpus.mjs). */
export const uuid = (r) => `${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}`;

export const iso = (ms) => new Date(ms).toISOString();

export const COMMANDS = ['npm test', 'git status', 'rm -rf build', 'ls -la src', 'cat package.json', 'git push origin main', 'make all', 'npx tsc --noEmit', 'curl -s http://127.0.0.1:8080/health'];

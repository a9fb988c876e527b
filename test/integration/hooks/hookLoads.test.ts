// `rec hook` runs once per agent hook and must start fast: it loads rec's own modules and node's
// built-ins, nothing from node_modules (no zod, ws, sqlite, pty or xterm). Checked at run time, on
// the built CLI, by a module-resolution hook that writes down every module the process resolves —
// so the modules an agent's registry row would only load on demand do not count, and any that do
// load are seen.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/rec.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-hook-loads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `rec hook <args>` with a resolve hook that appends each resolved URL to a file; returns them. */
function modulesLoadedBy(args: string[], name: string): string[] {
  const log = join(dir, `${name}.log`);
  const hooks = join(dir, `${name}-hooks.mjs`);
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}
`,
  );
  const register = join(dir, `${name}-register.mjs`);
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, join(REPO_ROOT, 'dist', 'cli.js'), 'hook', ...args], {
    input: '{"hook_event_name":"PreToolUse"}',
    env: { ...process.env, HOME: dir, XDG_STATE_HOME: dir, REC_HOOK_URL: 'ws://127.0.0.1:9/rec-hook', REC_HOOK_TOKEN: 'x' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status).toBe(0);
  return readFileSync(log, 'utf8').split('\n').filter((url) => url !== '');
}

describe('rec hook', () => {
  it.each([...AGENT_NAMES])('for %s loads rec’s own modules and node built-ins only', (agent) => {
    const urls = modulesLoadedBy([agent, 'PreToolUse'], agent);
    expect(urls.some((u) => u.endsWith('/dist/commands/hook.js'))).toBe(true);
    const outside = urls.filter((u) => !u.startsWith('node:') && !u.startsWith(pathToFileURL(join(REPO_ROOT, 'dist')).href));
    expect(outside).toEqual([]);
  });
});

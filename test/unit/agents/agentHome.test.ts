// One home folder per agent (AgentModule.home), honouring the agent's override variable, an empty
// one counting as unset, as the agent itself reads it; the session roots, the rule files rec reads
// and the rule file `rec rules --write` writes all start from it. Gemini's rules once ignored
// GEMINI_CLI_HOME, and an empty CLAUDE_CONFIG_DIR once made Claude's user settings `./settings.json`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentModule } from '../../../src/agents/registry.js';
import { SessionChooser } from '../../../src/agents/gemini/sessionLocator.js';

const HOME = '/home/someone';
const OVERRIDE = '/srv/agent-home';

const CASES = [
  { agent: 'codex', variable: 'CODEX_HOME', fromOverride: OVERRIDE, fromHome: join(HOME, '.codex') },
  { agent: 'gemini', variable: 'GEMINI_CLI_HOME', fromOverride: join(OVERRIDE, '.gemini'), fromHome: join(HOME, '.gemini') },
  { agent: 'claude', variable: 'CLAUDE_CONFIG_DIR', fromOverride: OVERRIDE, fromHome: join(HOME, '.claude') },
] as const;

const ENVS = (variable: string, c: (typeof CASES)[number]) =>
  [
    { env: { HOME, [variable]: OVERRIDE }, home: c.fromOverride, what: `${variable} set` },
    { env: { HOME, [variable]: '' }, home: c.fromHome, what: `${variable} empty` },
    { env: { HOME }, home: c.fromHome, what: `${variable} unset` },
  ] as const;

describe.each(CASES)('$agent: one home folder', (c) => {
  const m = agentModule(c.agent);
  it.each(ENVS(c.variable, c))('$what: home, session roots and every user-level rule file start from it', ({ env, home }) => {
    expect(m.home(env)).toBe(home);
    for (const root of m.sessionRoots(env)) expect(root.startsWith(home + '/')).toBe(true);
    const rules = m.permissionRules!;
    const project = '/work/project';
    for (const { file } of rules.ruleFiles(project, env)) expect(file.startsWith(home + '/') || file.startsWith(project + '/'), file).toBe(true);
    const personal = rules.personalFile(project, env);
    expect(personal.startsWith(home + '/') || personal.startsWith(project + '/'), personal).toBe(true);
  });
});

describe("Gemini's session locator", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it.each([
    ['GEMINI_CLI_HOME set', (root: string) => ({ HOME: join(root, 'home'), GEMINI_CLI_HOME: join(root, 'other') }), 'other'],
    ['GEMINI_CLI_HOME empty', (root: string) => ({ HOME: join(root, 'home'), GEMINI_CLI_HOME: '' }), 'home'],
  ] as const)('%s: reads projects.json and the chats from the same home as the rules', (_what, envOf, where) => {
    dir = mkdtempSync(join(tmpdir(), 'rec-agent-home-'));
    const env = envOf(dir);
    const gemini = join(dir, where, '.gemini');
    mkdirSync(gemini, { recursive: true });
    writeFileSync(join(gemini, 'projects.json'), JSON.stringify({ projects: { '/work/project': 'project' } }));
    const chooser = new SessionChooser(env, '/work/project', new Date(), () => false);
    try {
      expect(chooser.chatsDir()).toBe(join(gemini, 'tmp', 'project', 'chats'));
      expect(agentModule('gemini').permissionRules!.personalFile('/work/project', env)).toBe(join(gemini, 'policies', 'rec-rules.toml'));
    } finally {
      chooser.dispose();
    }
  });
});

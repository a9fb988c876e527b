// Claude Code's permission rules: permissions.allow / ask / deny strings in its settings files
// (`Bash(…)`, `Edit(…)`, `WebFetch(domain:…)`, `mcp__server__tool`). `Bash(cmd)` matches exactly and
// `Bash(cmd *)` by prefix.
import { join } from 'node:path';
import { claudeHome } from './home.js';
import { addToJsonList, whyNotJsonObject } from '../common/jsonEdit.js';
import {
  noEntry,
  readIfThere,
  someEntry,
  type Entry,
  type ExistingRule,
  type PermissionRules,
  type RuleDecision,
  type RuleEnv,
  type RuleMatch,
  type WrittenRule,
} from '../common/ruleFormat.js';

/** Where Claude Code keeps a project's personal rules, under the folder it runs in. */
export const LOCAL_SETTINGS = join('.claude', 'settings.local.json');

/** Words Claude's `Bash(…)` pattern can hold as written: no quotes, globs or parentheses to escape. */
const BARE_WORD = /^[\w@%+=:,./-]+$/;

function entry(m: RuleMatch): Entry {
  switch (m.kind) {
    case 'command':
      if (!m.words.every((w) => BARE_WORD.test(w))) return noEntry('a word holds quotes or special characters that a Bash(…) pattern would misread');
      return someEntry(`Bash(${m.words.join(' ')}${m.exact ? '' : ' *'})`);
    case 'edit': {
      // `/x` is x in the folder of the settings file (the project); `//x` the absolute /x.
      return someEntry(`Edit(/${m.file ?? `${m.dir}/**`})`);
    }
    case 'fetch':
      return someEntry(`WebFetch(domain:${m.host})`);
    case 'mcp':
      return someEntry(`mcp__${m.server}__${m.tool}`);
  }
}

/** `Bash(npm test *)`, `Bash(npm run test:*)` (prefixes) or `Bash(git status)` (exact). */
export function claudeBashMatch(rule: string): RuleMatch | null {
  const m = /^Bash\((.+)\)$/.exec(rule.trim());
  if (m === null) return null;
  const body = m[1]!;
  const prefix = /(?: \*|:\*)$/.exec(body);
  const words = (prefix ? body.slice(0, prefix.index) : body).split(/\s+/).filter((w) => w !== '');
  return words.length === 0 || words.some((w) => w.includes('*')) ? null : { kind: 'command', words, exact: prefix === null };
}

/**
 * The permissions lists of a settings file's text, strings only (anything else in a list is left
 * out); throws on text that is not JSON. The one reader of these lists: `rec rules` and the
 * recorder's read-back of a "don't ask again" rule both use it.
 */
export function permissionLists(text: string): Record<RuleDecision, string[]> {
  const doc: unknown = JSON.parse(text);
  const perms = (doc as { permissions?: Record<string, unknown> } | null)?.permissions ?? {};
  const strings = (list: unknown): string[] => (Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : []);
  return { allow: strings(perms.allow), ask: strings(perms.ask), deny: strings(perms.deny) };
}

function readSettings(file: string): ExistingRule[] {
  const text = readIfThere(file);
  if (text === null) return [];
  const lists = permissionLists(text);
  const rules: ExistingRule[] = [];
  for (const decision of ['allow', 'ask', 'deny'] as const) {
    for (const text of lists[decision]) {
      const match = claudeBashMatch(text);
      if (match !== null) rules.push({ file, text, decision, match });
    }
  }
  return rules;
}

/** The entries by list: `{ allow: […], ask: […], deny: […] }`, empty lists left out. */
function permissions(rules: readonly WrittenRule[]): Record<string, string[]> {
  const lists: Record<string, string[]> = {};
  for (const r of rules) (lists[r.decision] ??= []).push(r.entry);
  return lists;
}


export const claudePermissionRules: PermissionRules = {
  prefixOnly: false,
  target: '.claude/settings.local.json in the project: permissions.allow, ask, deny',
  guardedFolders: ['.claude'],
  entry: (m) => entry(m),
  ruleFiles: (project, env) =>
    [join(project, LOCAL_SETTINGS), join(project, '.claude', 'settings.json'), join(claudeHome(env), 'settings.json')].map((file) => ({ file, read: readSettings })),
  personalFile: (project) => join(project, LOCAL_SETTINGS),
  fileText: (rules) => (rules.length === 0 ? '' : `${JSON.stringify({ permissions: permissions(rules) }, null, 2)}\n`),
  planWrite: (before, rules) => {
    let after = before === null || before.trim() === '' ? '{}\n' : before;
    const error = whyNotJsonObject(after);
    if (error !== undefined) return { ok: false, error };
    for (const [decision, entries] of Object.entries(permissions(rules))) after = addToJsonList(after, ['permissions', decision], entries);
    return { ok: true, after };
  },
};

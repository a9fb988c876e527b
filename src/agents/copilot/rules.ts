// GitHub Copilot CLI's saved approvals: `~/.copilot/permissions-config.json` (docs/copilot.md §6),
// `{"locations": {"<repo root>": {"tool_approvals": [{"kind": "commands", "commandIdentifiers":
// ["node"]}, {"kind": "write"}, {"kind": "mcp", "serverName": …, "toolName": …}]}}}`, what each
// "don't ask again … in this repo" answer appends. It holds approvals only, and coarse ones: a command
// identifier is a whole program (an identifier with a space never matches, github/copilot-cli#4150)
// and `write` is every write in the location. rec writes only what says no more than was approved.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { copilotHome } from './home.js';
import { addToJsonList, whyNotJsonObject } from '../common/jsonEdit.js';
import {
  noEntry,
  readIfThere,
  someEntry,
  type Entry,
  type EntryContext,
  type ExistingRule,
  type PermissionRules,
  type RuleEnv,
  type RuleMatch,
  type WrittenRule,
} from '../common/ruleFormat.js';

export const PERMISSIONS_FILE = 'permissions-config.json';

/** Copilot's flags, the only way it takes a refusal or an ask: for the reason rec gives. */
const NO_DENY = 'Copilot keeps no deny or ask rule in a file: its --deny-tool flag refuses for one run';

function entry(m: RuleMatch, { decision }: EntryContext): Entry {
  if (decision !== 'allow') return noEntry(NO_DENY);
  switch (m.kind) {
    case 'command': {
      const [program, ...rest] = m.words;
      // A saved command approval is the program with any arguments: only a rule that already says so fits.
      if (program === undefined || rest.length > 0 || m.exact) {
        return noEntry(`Copilot saves a command approval for the whole program (\`${program ?? ''}\` with any arguments), wider than this rule`);
      }
      return someEntry(JSON.stringify({ kind: 'commands', commandIdentifiers: [program] }));
    }
    case 'edit':
      return noEntry('Copilot saves a write approval for every file in the location (and shell redirections), wider than this rule');
    case 'fetch':
      return noEntry('Copilot keeps allowed URLs in its settings.json (allowedUrls), which rec does not write');
    case 'mcp':
      return someEntry(JSON.stringify({ kind: 'mcp', serverName: m.server, toolName: m.tool }));
  }
}

/**
 * The location Copilot files a folder's approvals under: the repository root (measured: the work
 * dir, a repository's root), else the folder itself (outside a repository: not measured).
 */
export function copilotLocation(project: string): string {
  for (let dir = project; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return project;
  }
}

type Approval = { kind?: unknown; commandIdentifiers?: unknown };

/** The saved command approvals of the location of `project`, as allow rules; throws on text that is not JSON. */
function readApprovals(file: string, project: string): ExistingRule[] {
  const text = readIfThere(file);
  if (text === null) return [];
  const doc = JSON.parse(text) as { locations?: Record<string, { tool_approvals?: unknown }> } | null;
  const approvals = doc?.locations?.[copilotLocation(project)]?.tool_approvals;
  const rules: ExistingRule[] = [];
  for (const a of Array.isArray(approvals) ? (approvals as Approval[]) : []) {
    if (a?.kind !== 'commands' || !Array.isArray(a.commandIdentifiers)) continue;
    for (const id of a.commandIdentifiers) {
      // Copilot matches an identifier as one program: one with a space never allows anything.
      const program = typeof id === 'string' ? id.trim() : '';
      if (!/^\S+$/.test(program)) continue;
      rules.push({ file, text: `commands "${program}"`, decision: 'allow', match: { kind: 'command', words: [program], exact: false } });
    }
  }
  return rules;
}

const approvalsOf = (rules: readonly WrittenRule[]): unknown[] => rules.map((r) => JSON.parse(r.entry) as unknown);

export const copilotPermissionRules: PermissionRules = {
  prefixOnly: true,
  target: '~/.copilot/permissions-config.json: the tool_approvals of the project’s location (allow only)',
  guardedFolders: ['.copilot'],
  entry,
  ruleFiles: (project, env) => {
    const file = join(copilotHome(env), PERMISSIONS_FILE);
    return [{ file, read: (f) => readApprovals(f, project) }];
  },
  personalFile: (_project, env) => join(copilotHome(env), PERMISSIONS_FILE),
  fileText: (rules, project) =>
    rules.length === 0 ? '' : `${JSON.stringify({ locations: { [copilotLocation(project ?? '.')]: { tool_approvals: approvalsOf(rules) } } }, null, 2)}\n`,
  planWrite: (before, rules, project) => {
    const after = before === null || before.trim() === '' ? '{}\n' : before;
    const error = whyNotJsonObject(after);
    if (error !== undefined) return { ok: false, error };
    return { ok: true, after: addToJsonList(after, ['locations', copilotLocation(project), 'tool_approvals'], approvalsOf(rules)) };
  },
};

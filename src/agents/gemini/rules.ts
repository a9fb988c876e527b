// Gemini CLI's permission rules: `[[rule]]` tables of its policy engine in ~/.gemini/policies/*.toml,
// which match a command by prefix (commandPrefix) and other calls by a regex over their arguments.
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { z as Zod } from 'zod';
import { geminiHome } from './home.js';
import {
  appendBlocks,
  filesIn,
  noEntry,
  someEntry,
  textReader,
  type Entry,
  type EntryContext,
  type ExistingRule,
  type PermissionRules,
  type RuleDecision,
  type RuleEnv,
  type RuleMatch,
  type WrittenRule,
} from '../common/ruleFormat.js';

const DECISION: Record<RuleDecision, string> = { allow: 'allow', ask: 'ask_user', deny: 'deny' };
/** Above an allow, a deny or ask wins; all below the 950 of Gemini's own "allow always" rules. */
const PRIORITY: Record<RuleDecision, number> = { allow: 100, ask: 200, deny: 300 };

function toml(text: string): string {
  return JSON.stringify(text);
}

function regexEscape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function rule(fields: string[], decision: RuleDecision): string {
  return ['[[rule]]', ...fields, `decision = ${toml(DECISION[decision])}`, `priority = ${PRIORITY[decision]}`].join('\n');
}

function entry(m: RuleMatch, { decision, tools, cwd }: EntryContext): Entry {
  switch (m.kind) {
    case 'command':
      return someEntry(rule([`toolName = "run_shell_command"`, `commandPrefix = ${toml(m.words.join(' '))}`], decision));
    case 'edit': {
      // argsPattern is a regex over the call's arguments as JSON; file_path may be absolute.
      const base = m.in_project && cwd !== null ? `(${regexEscape(`${cwd}/`)})?` : '';
      const path = m.file !== null ? `${regexEscape(m.file)}"` : `${regexEscape(`${m.dir}/`)}[^"]*"`;
      const pattern = `"file_path":"${base}${path}`;
      return someEntry(tools.map((t) => rule([`toolName = ${toml(t)}`, `argsPattern = ${toml(pattern)}`], decision)).join('\n\n'));
    }
    case 'fetch':
      return noEntry('Gemini CLI has no domain syntax for web_fetch (its one argument is a prompt)');
    case 'mcp':
      return someEntry(rule([`mcpName = ${toml(m.server)}`, `toolName = ${toml(m.tool)}`], decision));
  }
}

const DECISIONS: Record<string, RuleDecision> = { allow: 'allow', ask_user: 'ask', deny: 'deny' };

/** A policy file as far as rec reads it: its `[[rule]]` tables, each field checked where it is used. */
function policySchema(z: typeof Zod) {
  return z.looseObject({ rule: z.array(z.looseObject({ toolName: z.unknown().optional(), decision: z.unknown().optional(), commandPrefix: z.unknown().optional() })).optional() });
}

const requirePackage = createRequire(import.meta.url);
let tomlPackages: { readonly parse: (text: string) => unknown; readonly policy: ReturnType<typeof policySchema> } | undefined;

/**
 * smol-toml and zod, loaded the first time a policy file is read: this module is on the registry row,
 * which every `rec hook` loads, and that must load no package (test/integration/hooks/hookLoads.test.ts).
 */
function tomlReader(): NonNullable<typeof tomlPackages> {
  if (tomlPackages === undefined) {
    const { parse } = requirePackage('smol-toml') as typeof import('smol-toml');
    const { z } = requirePackage('zod') as typeof import('zod');
    tomlPackages = { parse, policy: policySchema(z) };
  }
  return tomlPackages;
}

/**
 * `[[rule]]` tables of run_shell_command with a commandPrefix (a string or a list of them), read
 * with a TOML parser: any valid TOML Gemini reads (literal strings, comments, inline tables) reads
 * here too; a file that is not TOML throws, and `rec rules` names it.
 */
export function geminiRules(file: string, text: string): ExistingRule[] {
  const reader = tomlReader();
  const policy = reader.policy.safeParse(reader.parse(text));
  const rules: ExistingRule[] = [];
  for (const r of policy.success ? (policy.data.rule ?? []) : []) {
    const decision = typeof r.decision === 'string' ? DECISIONS[r.decision] : undefined;
    if (r.toolName !== 'run_shell_command' || decision === undefined) continue;
    const prefixes = typeof r.commandPrefix === 'string' ? [r.commandPrefix] : Array.isArray(r.commandPrefix) ? r.commandPrefix : [];
    for (const p of prefixes) {
      if (typeof p !== 'string' || p.trim() === '') continue;
      rules.push({ file, text: `commandPrefix = ${JSON.stringify(p)}, decision = "${decision}"`, decision, match: { kind: 'command', words: p.trim().split(/\s+/), exact: false } });
    }
  }
  return rules;
}

/** Whether the file is TOML: rec appends its tables only to a file Gemini can read. */
function isToml(text: string): boolean {
  try {
    tomlReader().parse(text);
    return true;
  } catch {
    // TomlError: not TOML; the file is left untouched and the user told.
    return false;
  }
}

function fileText(rules: readonly WrittenRule[]): string {
  return rules.length === 0 ? '' : rules.map((r) => r.entry).join('\n\n') + '\n';
}

const policies = (env: RuleEnv): string => join(geminiHome(env), 'policies');

export const geminiPermissionRules: PermissionRules = {
  prefixOnly: true,
  target: '~/.gemini/policies/rec-rules.toml',
  guardedFolders: ['.gemini'],
  entry,
  ruleFiles: (_project, env) => filesIn(policies(env), '.toml').map((file) => ({ file, read: textReader(geminiRules) })),
  personalFile: (_project, env) => join(policies(env), 'rec-rules.toml'),
  fileText,
  planWrite: (before, rules) => {
    if (before !== null && !isToml(before)) return { ok: false, error: 'not TOML rec can read; left untouched' };
    return { ok: true, after: appendBlocks(before, fileText(rules), /\n\n/, '\n\n') };
  },
};

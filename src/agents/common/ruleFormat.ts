// What an agent module knows of its permission rules (AgentModule.permissionRules): how a rule rec
// suggests is written in the agent's own format, where the agent reads rules from, and how its
// existing rules read back. `rec rules` (src/rules/) works from these and the registry alone.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type RuleDecision = 'allow' | 'ask' | 'deny';

/** What a rule matches, in rec's own terms (each agent's format is written from this). */
export type RuleMatch =
  /** `exact`: only these words; else these words followed by any others. */
  | { kind: 'command'; words: string[]; exact: boolean }
  /** `dir`: every file under it ('' never: that would be every file); `file`: one file. In-project paths are relative. */
  | { kind: 'edit'; dir: string | null; file: string | null; in_project: boolean }
  | { kind: 'fetch'; host: string }
  | { kind: 'mcp'; server: string; tool: string };

/** A rule in the agent's format, or why the agent has no way to say it. */
export type Entry = { entry: string; reason: null } | { entry: null; reason: string };

export const noEntry = (reason: string): Entry => ({ entry: null, reason });
export const someEntry = (entry: string): Entry => ({ entry, reason: null });

export interface EntryContext {
  decision: RuleDecision;
  /** The agent's tool names seen in the group. */
  tools: readonly string[];
  /** Commands the rule covers, as words (examples a format can check the rule against). */
  examples: ReadonlyArray<readonly string[]>;
  justification: string;
  /** The folder the sessions ran in, when they all ran in one. */
  cwd: string | null;
}

/** A rule rec suggests, written: what the agent's rule file is made of. */
export interface WrittenRule {
  decision: RuleDecision;
  match: RuleMatch;
  entry: string;
}

/** A rule found in one of the agent's rule files. */
export interface ExistingRule {
  file: string;
  text: string;
  decision: RuleDecision;
  match: RuleMatch;
}

/** A rule file the agent reads, and its reader: an absent file is no rules, an unreadable one throws. */
export interface RuleFileSource {
  file: string;
  read(file: string): ExistingRule[];
}

export type RuleEnv = Readonly<Record<string, string | undefined>>;

export type RuleFilePlan = { ok: true; after: string } | { ok: false; error: string };

export interface PermissionRules {
  /** Whether the agent's command rules always match by prefix (no exact form). */
  readonly prefixOnly: boolean;
  /** Where the suggested rules go, and how the agent reads them, for people. */
  readonly target: string;
  /** Folders (as path segments) whose editing changes what the agent may do: never allowed by a rule. */
  readonly guardedFolders: readonly string[];
  /** The suggestion in the agent's own format, paste-ready, or why it cannot be said. */
  entry(m: RuleMatch, ctx: EntryContext): Entry;
  /** The rule files the agent reads for a project, each with its parser (command rules only). */
  ruleFiles(project: string, env: RuleEnv): RuleFileSource[];
  /** The personal file `rec rules --write` adds to. */
  personalFile(project: string, env: RuleEnv): string;
  /** The rules as the text of the agent's rule file, for the sessions' project; empty when there are none. */
  fileText(rules: readonly WrittenRule[], project: string | null): string;
  /** The personal file's text with the rules added for `project` (before: null when it is absent). */
  planWrite(before: string | null, rules: readonly WrittenRule[], project: string): RuleFilePlan;
}

/** A file's text, or null when it does not exist; other errors throw. */
export function readIfThere(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The files of a folder with this ending, sorted; none when the folder cannot be read. */
export function filesIn(dir: string, ext: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith(ext)).sort().map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/** A reader of a text rule file from a parser of its text. */
export function textReader(parse: (file: string, text: string) => ExistingRule[]): (file: string) => ExistingRule[] {
  return (file) => {
    const t = readIfThere(file);
    return t === null ? [] : parse(file, t);
  };
}

/**
 * A text rule file with rule blocks added at its end: each block (the new text split by `split`)
 * unless the file already holds it word for word, joined by `join`.
 */
export function appendBlocks(before: string | null, text: string, split: RegExp, joiner: string): string {
  const old = before ?? '';
  const blocks = text.split(split).map((b) => b.trimEnd()).filter((b) => b !== '' && !old.includes(b));
  if (blocks.length === 0) return old;
  const sep = old === '' ? '' : old.endsWith('\n') ? '\n' : '\n\n';
  return `${old}${sep}${blocks.join(joiner)}\n`;
}

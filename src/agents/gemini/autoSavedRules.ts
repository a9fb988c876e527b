// The rule Gemini CLI writes for "Allow this command for all future sessions" (offered only with
// `security.enablePermanentToolApproval`): a `[[rule]]` table appended to `auto-saved.toml` in its
// user policies folder, or in the project's `.gemini/policies/` when Gemini loads that project's
// policies (measured on 0.61.0, docs/gemini.md#allow-for-all-future-sessions). Read back so the
// approval's event can carry the rule text, as Codex's "always" rules are (agents/codex/mcpRules.ts).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { geminiHome } from './home.js';

/** The shape of an auto-saved shell rule: these fields, with these values where given. */
export const AUTO_SAVED_RULE = {
  file: 'auto-saved.toml',
  header: '[[rule]]',
  decision: '"allow"',
  /** Gemini's always-allow priority fraction (ALWAYS_ALLOW_PRIORITY_FRACTION). */
  priority: '950',
  shellTool: 'run_shell_command',
} as const;

/** The files Gemini may have written the rule to: the user's, then the project's. */
export function autoSavedRuleFiles(env: NodeJS.ProcessEnv, cwd: string): string[] {
  return [join(geminiHome(env), 'policies', AUTO_SAVED_RULE.file), join(cwd, '.gemini', 'policies', AUTO_SAVED_RULE.file)];
}

/** The `[[rule]]` blocks of a policy file, verbatim, trimmed (header to the next table). */
export function ruleBlocks(text: string): string[] {
  return [...text.matchAll(/^[ \t]*\[\[rule\]\][ \t]*$/gm)].map((header) => {
    const bodyStart = header.index + header[0].length;
    const next = text.slice(bodyStart).search(/^[ \t]*\[/m);
    return text.slice(header.index, next >= 0 ? bodyStart + next : text.length).trim();
  });
}

/** A `key = value` line's value in a block, as written. */
function field(block: string, key: string): string | undefined {
  return new RegExp(`^\\s*${key}\\s*=\\s*(.+?)\\s*$`, 'm').exec(block)?.[1];
}

/**
 * The commands a shell line starts, by the name it is run as (`touch a && git status` starts
 * `touch` and `git`): Gemini saves these "root commands" as the rule's commandPrefix.
 */
export function shellRoots(command: string): string[] {
  return command
    .split(/&&|\|\||[;|&\n]/)
    .map((part) => part.trim().split(/\s+/).find((w) => !/^\w+=/.test(w)) ?? '')
    .map((word) => word.replace(/^.*\//, ''))
    .filter((word) => word !== '');
}

function prefixesOf(block: string): string[] | undefined {
  const raw = field(block, 'commandPrefix');
  if (raw === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    const list = typeof value === 'string' ? [value] : value;
    return Array.isArray(list) && list.every((p): p is string => typeof p === 'string') ? list : undefined;
  } catch {
    return undefined; // not a TOML string or list of them that JSON reads: not a rule Gemini saved
  }
}

/** Whether an always-allow block is the one saved for this shell command: its prefixes are the command's roots. */
export function blockAllowsCommand(block: string, command: string): boolean {
  if (field(block, 'toolName') !== JSON.stringify(AUTO_SAVED_RULE.shellTool)) return false;
  if (field(block, 'decision') !== AUTO_SAVED_RULE.decision || field(block, 'priority') !== AUTO_SAVED_RULE.priority) return false;
  const prefixes = prefixesOf(block);
  const roots = shellRoots(command);
  return prefixes !== undefined && prefixes.length > 0 && prefixes.includes(roots[0] ?? '') && prefixes.every((p) => roots.includes(p));
}

function modifiedAt(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1; // no such file: never the newest
  }
}

/**
 * The always-allow block saved for `command`, read from the files given (the most recently written
 * first; in a file, the last fitting block), or undefined when none holds one.
 */
export function autoSavedShellRule(files: readonly string[], command: string): string | undefined {
  for (const file of [...files].sort((a, b) => modifiedAt(b) - modifiedAt(a))) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // no such file: Gemini saved nothing there
    }
    const hit = ruleBlocks(text).filter((b) => blockAllowsCommand(b, command)).at(-1);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

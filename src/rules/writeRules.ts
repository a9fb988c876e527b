// `rec rules --write`: the agent's personal rule file with the suggested rules added, every other
// byte kept. Planned first (so the change can be shown), then written atomically: a temporary
// file beside it, renamed over it. A file that cannot be parsed is never touched.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { addToJsonList } from '../agents/common/jsonEdit.js';
import { claudePermissions, ruleFileText } from './ruleFile.js';
import type { AgentRules } from './ruleTypes.js';

export type WritePlan = { ok: true; file: string; before: string | null; after: string } | { ok: false; file: string; error: string };

interface Where {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** The personal file each agent reads rules from (project-local for Claude). */
export function personalRuleFile(agent: string, project: string, where: Where): string | null {
  const home = where.env.HOME ?? homedir();
  if (agent === 'claude') return join(project, '.claude', 'settings.local.json');
  if (agent === 'codex') return join(where.env.CODEX_HOME ?? join(home, '.codex'), 'rules', 'default.rules');
  if (agent === 'gemini') return join(home, '.gemini', 'policies', 'rec-rules.toml');
  return null;
}

function readIfThere(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** A TOML file of tables and `key = value` lines, as rec writes and Gemini's policies are. */
function plainToml(text: string): boolean {
  return text.split('\n').every((l) => /^\s*(#.*)?$/.test(l) || /^\s*\[\[?[\w.-]+\]\]?\s*(#.*)?$/.test(l) || /^\s*[\w.-]+\s*=\s*\S/.test(l) || /^\s*["'\]\w,-]/.test(l));
}

function appendBlocks(before: string | null, a: AgentRules): string {
  const old = before ?? '';
  // Each rule block is added unless the file already holds it word for word.
  const blocks = ruleFileText(a).split(a.agent === 'codex' ? /\n(?=prefix_rule\(|network_rule\(|# in config)/ : /\n\n/).map((b) => b.trimEnd()).filter((b) => b !== '' && !old.includes(b));
  if (blocks.length === 0) return old;
  const sep = old === '' ? '' : old.endsWith('\n') ? '\n' : '\n\n';
  return `${old}${sep}${blocks.join(a.agent === 'codex' ? '\n' : '\n\n')}\n`;
}

export function planWrite(a: AgentRules, where: Where): WritePlan {
  const file = personalRuleFile(a.agent, a.project ?? where.cwd, where);
  if (file === null) return { ok: false, file: '-', error: `rec does not know where ${a.agent} reads rules` };
  let before: string | null;
  try {
    before = readIfThere(file);
  } catch (err) {
    return { ok: false, file, error: (err as Error).message };
  }
  if (a.agent === 'claude') {
    const lists = claudePermissions(a);
    let after = before === null || before.trim() === '' ? '{}\n' : before;
    try {
      const doc: unknown = JSON.parse(after);
      if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { ok: false, file, error: 'not a JSON object; left untouched' };
    } catch (err) {
      return { ok: false, file, error: `not valid JSON (${(err as Error).message}); left untouched` };
    }
    for (const [decision, entries] of Object.entries(lists)) after = addToJsonList(after, ['permissions', decision], entries);
    return { ok: true, file, before, after };
  }
  if (a.agent === 'gemini' && before !== null && !plainToml(before)) return { ok: false, file, error: 'not TOML rec can read; left untouched' };
  return { ok: true, file, before, after: appendBlocks(before, a) };
}

/** Writes the plan atomically, keeping the file's mode. */
export function commitWrite(plan: Extract<WritePlan, { ok: true }>): void {
  mkdirSync(dirname(plan.file), { recursive: true });
  const tmp = `${plan.file}.rec-${process.pid}.tmp`;
  let mode = 0o644;
  try {
    mode = statSync(plan.file).mode & 0o7777;
  } catch {
    // A new file: the default mode.
  }
  writeFileSync(tmp, plan.after, { mode });
  renameSync(tmp, plan.file);
}

/** The change as a small unified diff: the lines between the common head and tail. */
export function lineDiff(file: string, before: string | null, after: string): string {
  const a = (before ?? '').split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out = [`--- ${before === null ? '/dev/null' : file}`, `+++ ${file}`, `@@ -${head + 1},${a.length - head - tail} +${head + 1},${b.length - head - tail} @@`];
  for (const l of a.slice(Math.max(0, head - 2), head)) out.push(` ${l}`);
  for (const l of a.slice(head, a.length - tail)) out.push(`-${l}`);
  for (const l of b.slice(head, b.length - tail)) out.push(`+${l}`);
  for (const l of a.slice(a.length - tail, a.length - tail + 2)) out.push(` ${l}`);
  return out.join('\n') + '\n';
}

// `rec rules --write`: the agent's personal rule file with the suggested rules added, every other
// byte kept. Planned first (so the change can be shown), then written atomically: a temporary
// file beside it, renamed over it. A file that cannot be parsed is never touched.
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { readIfThere } from '../agents/common/ruleFormat.js';
import { rulesOf } from './agentFormats.js';
import { writtenRules } from './ruleFile.js';
import type { AgentRules } from './ruleTypes.js';

export type WritePlan = { ok: true; file: string; before: string | null; after: string } | { ok: false; file: string; error: string };

interface Where {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

export function planWrite(a: AgentRules, where: Where): WritePlan {
  const rules = rulesOf(a.agent);
  if (rules === undefined) return { ok: false, file: '-', error: `rec does not know where ${a.agent} reads rules` };
  const project = a.project ?? where.cwd;
  const file = rules.personalFile(project, where.env);
  let before: string | null;
  try {
    before = readIfThere(file);
  } catch (err) {
    return { ok: false, file, error: (err as Error).message };
  }
  const plan = rules.planWrite(before, writtenRules(a), project);
  return plan.ok ? { ok: true, file, before, after: plan.after } : { ok: false, file, error: plan.error };
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

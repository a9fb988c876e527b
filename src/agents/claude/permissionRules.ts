// The rule Claude Code wrote when the user chose "Yes, and don't ask again …" (WebFetch, an MCP
// tool): it appends it to the project's .claude/settings.local.json, permissions.allow, and its
// transcript says only `permissionDecision.source: "user_permanent"`. Read back here so the approval
// can show it (docs/claude-prompts.md). Best effort: a missing or unreadable file is no rule.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LOCAL_SETTINGS, permissionLists } from './rules.js';

/**
 * The allow rule of `toolName` in the local settings: `mcp__server__tool` as is, or `Tool(content)`;
 * for WebFetch the one naming the fetched host (`WebFetch(domain:<host>)`). Null when none, or when
 * several fit and nothing tells which.
 */
export function localAllowRule(cwd: string, toolName: string, toolInput: unknown): string | null {
  let rules: readonly string[];
  try {
    rules = permissionLists(readFileSync(join(cwd, LOCAL_SETTINGS), 'utf8')).allow;
  } catch {
    // No file yet, or one being rewritten: no rule to show.
    return null;
  }
  const host = toolName === 'WebFetch' ? hostOf(toolInput) : null;
  const fits = rules.filter((r) => (host !== null ? r === `WebFetch(domain:${host})` : r === toolName || r.startsWith(`${toolName}(`)));
  return fits.length === 1 ? fits[0]! : null;
}

function hostOf(input: unknown): string | null {
  const url = z.object({ url: z.string() }).safeParse(input);
  if (!url.success) return null;
  try {
    return new URL(url.data.url).hostname;
  } catch {
    return null;
  }
}

// The rule Codex writes for an MCP tool's "Always allow": a config.toml table, not an execpolicy
// line (measured on 0.171.0: `[mcp_servers.marker.tools.touch_marker]` / `approval_mode = "approve"`).
// Read back so the approval's event can carry the rule text, as Claude's "don't ask again" does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexHome } from './home.js';

/** A TOML key as Codex may write it: bare, or quoted when it has characters a bare key cannot. */
function keyPattern(key: string): string {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return /^[A-Za-z0-9_-]+$/.test(key) ? `(?:${escaped}|"${escaped}")` : `"${escaped}"`;
}

/**
 * The always-allow table of one MCP tool in `$CODEX_HOME/config.toml`, as text (header and the
 * `approval_mode = "approve"` line), or undefined when the file has none.
 */
export function mcpApprovalRule(env: NodeJS.ProcessEnv, server: string, tool: string): string | undefined {
  const file = join(codexHome(env), 'config.toml');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined; // no config.toml: no rule
  }
  const header = new RegExp(`^\\[\\s*mcp_servers\\.${keyPattern(server)}\\.tools\\.${keyPattern(tool)}\\s*\\]\\s*$`, 'm');
  const start = header.exec(text);
  if (!start) return undefined;
  const rest = text.slice(start.index + start[0].length);
  const body = rest.slice(0, rest.search(/^\s*\[/m) >= 0 ? rest.search(/^\s*\[/m) : rest.length);
  const mode = /^\s*approval_mode\s*=\s*"approve"\s*$/m.exec(body);
  return mode ? `${start[0].trim()}\n${mode[0].trim()}` : undefined;
}

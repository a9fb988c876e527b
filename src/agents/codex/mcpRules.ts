// The rule Codex writes for an MCP tool's "Always allow": a config.toml table, not an execpolicy
// line (measured on 0.171.0: `[mcp_servers.marker.tools.touch_marker]` / `approval_mode = "approve"`).
// Read back so the approval's event can carry the rule text, as Claude's "don't ask again" does.
// config.toml is read with a TOML parser: however Codex or the user spells the table (quoted keys,
// a dotted key, an inline table, comments), the rule is the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { codexHome } from './home.js';

const Config = z.looseObject({
  mcp_servers: z.record(z.string(), z.looseObject({ tools: z.record(z.string(), z.looseObject({ approval_mode: z.unknown().optional() })).optional() })).optional(),
});

/** A TOML key as rec writes it back: bare where it can be, quoted where it cannot. */
function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/**
 * The always-allow table of one MCP tool in `$CODEX_HOME/config.toml`, as TOML text (header and the
 * `approval_mode = "approve"` line), or undefined when the file has none or is not TOML.
 */
export function mcpApprovalRule(env: NodeJS.ProcessEnv, server: string, tool: string): string | undefined {
  let config: unknown;
  try {
    config = parseToml(readFileSync(join(codexHome(env), 'config.toml'), 'utf8'));
  } catch {
    // No config.toml, or one that is not TOML (Codex itself would refuse it): no rule read.
    return undefined;
  }
  const parsed = Config.safeParse(config);
  const mode = parsed.success ? parsed.data.mcp_servers?.[server]?.tools?.[tool]?.approval_mode : undefined;
  return mode === 'approve' ? `[mcp_servers.${tomlKey(server)}.tools.${tomlKey(tool)}]\napproval_mode = "approve"` : undefined;
}

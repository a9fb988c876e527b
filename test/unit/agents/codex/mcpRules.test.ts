// The MCP tool's always-allow rule read back from a real config.toml in a temp CODEX_HOME: however
// the table is spelled (as Codex 0.171.0 writes it, quoted keys, a dotted key, an inline table,
// comments), the same rule; none where the mode is not "approve" or the file is not TOML.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpApprovalRule } from '../../../../src/agents/codex/mcpRules.js';

const RULE = '[mcp_servers.marker.tools.touch_marker]\napproval_mode = "approve"';

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

function ruleIn(config: string | null, server = 'marker', tool = 'touch_marker'): string | undefined {
  home = mkdtempSync(join(tmpdir(), 'rec-codex-home-'));
  if (config !== null) writeFileSync(join(home, 'config.toml'), config);
  return mcpApprovalRule({ CODEX_HOME: home }, server, tool);
}

describe("Codex's MCP always-allow rule in config.toml", () => {
  it.each([
    ['as Codex 0.171.0 writes it', 'model = "x"\n\n[mcp_servers.marker]\ncommand = "node"\n\n[mcp_servers.marker.tools.touch_marker]\napproval_mode = "approve"\n'],
    ['with quoted keys and comments', '[mcp_servers."marker".tools."touch_marker"]  # allowed\napproval_mode = "approve" # always\n'],
    ['as a dotted key', '[mcp_servers.marker]\ntools.touch_marker.approval_mode = "approve"\n'],
    ['as an inline table', '[mcp_servers.marker.tools]\ntouch_marker = { approval_mode = "approve" }\n'],
  ])('%s: the rule', (_how, config) => {
    expect(ruleIn(config)).toBe(RULE);
  });

  it('quotes a key a bare key cannot hold', () => {
    expect(ruleIn('[mcp_servers."my server".tools."do.it"]\napproval_mode = "approve"\n', 'my server', 'do.it')).toBe('[mcp_servers."my server".tools."do.it"]\napproval_mode = "approve"');
  });

  it.each([
    ['another mode', '[mcp_servers.marker.tools.touch_marker]\napproval_mode = "prompt"\n'],
    ['another tool', '[mcp_servers.marker.tools.other]\napproval_mode = "approve"\n'],
    ['a file that is not TOML', '[mcp_servers.marker.tools.touch_marker\napproval_mode = "approve"\n'],
    ['no config.toml', null],
  ])('%s: no rule', (_how, config) => {
    expect(ruleIn(config)).toBeUndefined();
  });
});

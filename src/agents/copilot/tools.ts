// GitHub Copilot CLI's tools for merge (1.0.102, docs/copilot.md §1): the kind of a rejection of
// each, and the action a call takes. The reader takes a refusal's kind from the prompt's own kind
// first (sessionRecords.ts); this table answers where no prompt says it (a sidecar event, a rule).
import { commandTool, otherTool, replaceTool, writeTool, type ToolSpec, type ToolTable } from '../../readers/action.js';

/** Built-in tools are one word with underscores; an MCP server's tool is `<server>-<tool>` (`marker-touch_marker`). */
const MCP_TOOL = /^[^-\s]+-[^\s]+$/;

export const COPILOT_TOOLS: ToolTable = {
  tools: {
    bash: commandTool(['command']),
    create: writeTool(['path'], 'file_text'),
    edit: replaceTool(['path'], 'old_str', 'new_str'),
    // Its only prompt is "Allow path access" (a path outside the allowed folders): a tool blocked as such.
    view: otherTool('permission'),
  },
  fallback: (toolName: string): ToolSpec | undefined => (MCP_TOOL.test(toolName) ? otherTool('mcp') : undefined),
};

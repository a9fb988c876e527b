// Gemini CLI's tools for merge (0.61.0's default policy: run_shell_command, write_file and replace
// ask the user; web_fetch and google_web_search reach the network).
import { commandTool, mcpTool, otherTool, replaceTool, writeTool, type ToolTable } from '../../readers/action.js';

const replace = replaceTool(['file_path', 'path'], 'old_string', 'new_string');

export const GEMINI_TOOLS: ToolTable = {
  tools: {
    run_shell_command: commandTool(['command']),
    write_file: writeTool(['file_path', 'path'], 'content'),
    replace,
    edit: replace,
    web_fetch: otherTool('network'),
    google_web_search: otherTool('network'),
  },
  fallback: mcpTool,
};

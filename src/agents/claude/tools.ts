// Claude Code's tools for merge: what kind a rejection of each is, and the action a call takes.
import { commandTool, mcpTool, multiReplaceTool, otherTool, replaceTool, writeTool, type ToolTable } from '../../readers/action.js';

export const CLAUDE_TOOLS: ToolTable = {
  tools: {
    Bash: commandTool(['command']),
    BashOutput: otherTool('command'),
    Write: writeTool(['file_path', 'path'], 'content'),
    Edit: replaceTool(['file_path', 'path'], 'old_string', 'new_string'),
    MultiEdit: multiReplaceTool('file_path', 'edits', 'old_string', 'new_string'),
    NotebookEdit: replaceTool(['notebook_path'], null, 'new_source'),
    // A plan the model asks to carry out (plan mode's approval dialog): refusing it is refusing the plan.
    ExitPlanMode: otherTool('plan'),
    WebFetch: otherTool('network'),
    WebSearch: otherTool('network'),
  },
  fallback: mcpTool,
};

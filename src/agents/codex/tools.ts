// Codex's tools for merge: what kind a rejection of each is, and the action a call takes. Codex
// 0.169 runs patches as `apply_patch <<'EOF' … EOF` through exec_command, so such a command is the edit.
import { commandTool, mcpTool, otherTool, parseApplyPatch, patchTool, type ToolTable } from '../../readers/action.js';

const APPLY_PATCH_HEREDOC = /^\s*apply_patch\s+<<\s*'?(\w+)'?\s*\n([\s\S]*?)\n\1\s*$/;

const shell = commandTool(['cmd', 'command'], {
  raw: true,
  argv: true,
  asEdit: (cmd) => {
    const patch = APPLY_PATCH_HEREDOC.exec(cmd);
    return patch ? parseApplyPatch(patch[2] ?? '') : null;
  },
});

export const CODEX_TOOLS: ToolTable = {
  tools: {
    exec_command: shell,
    shell,
    local_shell: shell,
    'container.exec': shell,
    apply_patch: patchTool(['input', 'patch']),
    web_search: otherTool('network'),
  },
  fallback: mcpTool,
};

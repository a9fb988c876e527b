// Which rule an "always" answer wrote for a call, read back when the call's output comes, so the
// approval's event can carry the rule text: an MCP tool's config.toml table, the network_rule of a
// host a network prompt asked about that the command names, or the prefix_rule of a prefix an exec
// prompt offered that the command starts with. A rule there before the call would have let it
// through unasked, with no event to carry it.
import type { KnownCall } from '../common/callLedger.js';
import { networkApprovalRule, prefixApprovalRule } from './approvalRules.js';
import { callCommand, mcpToolOf, namesHost } from './callMatcher.js';
import { mcpApprovalRule } from './mcpRules.js';
import type { CodexPrompt } from './screenParser.js';
import type { CodexStrings } from './strings/index.js';

export class RulesWritten {
  /** MCP calls by call id, until their output: their server and tool. */
  private readonly _mcpCalls = new Map<string, { readonly server: string; readonly tool: string }>();
  /** Shell calls by call id, until their output: their command. */
  private readonly _shellCommands = new Map<string, string>();
  /** The hosts network prompts asked about in this run. */
  private readonly _hostsAsked = new Set<string>();
  /** The command prefixes exec prompts offered to allow always in this run. */
  private readonly _prefixesOffered = new Set<string>();

  constructor(
    private readonly _env: NodeJS.ProcessEnv,
    private readonly _strings: () => CodexStrings,
  ) {}

  /** A prompt on screen: what an "always" answer to it would write a rule for. */
  prompt(prompt: CodexPrompt): void {
    if (prompt.kind === 'network' && prompt.details.host !== undefined) this._hostsAsked.add(prompt.details.host);
    const pattern = this._strings().prefixRuleOption;
    if (prompt.kind !== 'exec' || !pattern) return;
    for (const option of prompt.options) {
      const prefix = pattern.exec(option.label)?.[1];
      if (prefix !== undefined) this._prefixesOffered.add(prefix);
    }
  }

  /** A call the rollout told. */
  call(call: KnownCall): void {
    const mcp = mcpToolOf(call.toolName);
    if (mcp) return void this._mcpCalls.set(call.callId, mcp);
    const command = callCommand(call, this._strings());
    if (command !== undefined) this._shellCommands.set(call.callId, command);
  }

  /** The call's output came: the rule an "always" answer wrote for it, unless it was refused. */
  output(callId: string, aborted: boolean): string | undefined {
    const mcp = this._mcpCalls.get(callId);
    const command = this._shellCommands.get(callId);
    this._mcpCalls.delete(callId);
    this._shellCommands.delete(callId);
    if (aborted) return undefined;
    if (mcp) return mcpApprovalRule(this._env, mcp.server, mcp.tool);
    return command === undefined ? undefined : this._shellRule(command);
  }

  private _shellRule(command: string): string | undefined {
    for (const host of this._hostsAsked) {
      const rule = namesHost(command, host) ? networkApprovalRule(this._env, host) : undefined;
      if (rule !== undefined) return rule;
    }
    for (const prefix of this._prefixesOffered) {
      const starts = command === prefix || command.startsWith(`${prefix} `);
      const rule = starts ? prefixApprovalRule(this._env, prefix, this._strings()) : undefined;
      if (rule !== undefined) return rule;
    }
    return undefined;
  }
}

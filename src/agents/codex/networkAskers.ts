// Which command asked for a host, as Codex's PermissionRequest hook tells it before the network
// prompt (measured on 0.171.0: `tool_input.command` is the running command, `description` is
// `network-access http://<host>:<port>`). The prompt shows only the host; with hooks on, a command
// that reaches a host it does not name (a package manager's registry) is still tied to its prompt.
import type { KnownCall } from '../common/callLedger.js';
import { callCommand } from './callMatcher.js';
import type { CodexPrompt } from './screenParser.js';
import type { CodexStrings } from './strings/index.js';

export class NetworkAskers {
  /** Host → the commands a hook said asked for it. */
  private readonly _byHost = new Map<string, Set<string>>();

  /** A PermissionRequest hook's tool_input: kept when it is a network request. */
  permissionRequest(input: { readonly command?: string | undefined; readonly description?: string | undefined } | undefined, strings: CodexStrings): void {
    const url = input?.description !== undefined ? strings.networkHookDescription?.exec(input.description)?.[1] : undefined;
    if (url === undefined || input?.command === undefined) return;
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return; // not a URL: not a network request rec can tie
    }
    const commands = this._byHost.get(host) ?? new Set<string>();
    commands.add(input.command);
    this._byHost.set(host, commands);
  }

  /** Whether a hook said this call's command asked for the network prompt's host. */
  asked(prompt: CodexPrompt, call: KnownCall, strings: CodexStrings): boolean {
    const host = prompt.kind === 'network' ? prompt.details.host : undefined;
    const command = callCommand(call, strings);
    return host !== undefined && command !== undefined && (this._byHost.get(host.toLowerCase())?.has(command) ?? false);
  }
}

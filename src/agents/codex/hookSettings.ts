// Wires `rec hook codex <Event>` into Codex for this run only, without touching the user's config:
// the hooks go in as `-c` overrides (Codex's "session flags" config layer), and so does their trust.
// Opt-in only (REC_CODEX_HOOKS=1, launch.ts): any `-c` moves Codex 0.169.0 off its shared daemon.
//
// Codex runs a non-managed hook only when `hooks.state."<key>".trusted_hash` equals the hash of the
// hook's normalized definition; otherwise it lists it under "Hooks need review" at startup. Session
// flags are one of the layers allowed to carry hook state (codex-rs/hooks/src/config_rules.rs), so
// trusting exactly our own hooks, for this invocation, is another `-c` override: the user's trust
// settings are neither read nor written, and `--dangerously-bypass-hook-trust` (which would run
// every untrusted hook of the user's too) is not needed. Keys and hash follow
// codex-rs/hooks/src/engine/discovery.rs (read, not copied):
//   key  = "<key_source>:<event_label>:<group_index>:<handler_index>", key_source for session
//          flags = "/<session-flags>/config.toml"
//   hash = "sha256:" + hex(sha256(canonical JSON of {event_name: label, matcher?, hooks: [handler]}))
//          with the handler normalized (timeout materialized, None fields dropped).
import { createHash } from 'node:crypto';

// Kept here, not beside the zod payload schemas: this module loads before Codex starts.
/** The hook events `rec codex` wires for its run (the names Codex's hooks config uses). */
export const CODEX_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'Stop',
] as const;
export type CodexHookEvent = (typeof CODEX_HOOK_EVENTS)[number];

/** Where Codex says session-flag (`-c`) config comes from, in hook state keys. */
export const SESSION_FLAGS_KEY_SOURCE = '/<session-flags>/config.toml';

/**
 * Seconds Codex waits for one of our hooks. `rec hook` only forwards the payload to the run over
 * loopback; if the run is gone it must not hold Codex up for Codex's default of 600 s.
 */
export const HOOK_TIMEOUT_SEC = 10;

const EVENT_LABELS: Record<CodexHookEvent, string> = {
  SessionStart: 'session_start',
  UserPromptSubmit: 'user_prompt_submit',
  PreToolUse: 'pre_tool_use',
  PermissionRequest: 'permission_request',
  PostToolUse: 'post_tool_use',
  Stop: 'stop',
};

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface CommandHook {
  readonly event: CodexHookEvent;
  readonly command: string;
  readonly timeoutSec: number;
}

/** The trust hash Codex computes for a command hook alone in its matcher group (no matcher). */
export function codexHookHash(hook: CommandHook): string {
  const identity = {
    event_name: EVENT_LABELS[hook.event],
    hooks: [{ type: 'command', command: hook.command, timeout: hook.timeoutSec, async: false }],
  };
  return 'sha256:' + createHash('sha256').update(canonicalJson(identity)).digest('hex');
}

/** The hooks.state key of the first hook of `event` in a config layer: session flags by default, else a config.toml's path. */
export function codexHookStateKey(event: CodexHookEvent, keySource: string = SESSION_FLAGS_KEY_SOURCE): string {
  return `${keySource}:${EVENT_LABELS[event]}:0:0`;
}

const tomlString = (s: string) => JSON.stringify(s);

/** The `-c` arguments that add and trust our hooks for one Codex invocation. */
export function codexHookArgs(hookCommand: (event: string) => string): string[] {
  const hooks: CommandHook[] = CODEX_HOOK_EVENTS.map((event) => ({ event, command: hookCommand(event), timeoutSec: HOOK_TIMEOUT_SEC }));
  const args: string[] = [];
  for (const hook of hooks) {
    args.push('-c', `hooks.${hook.event}=[{hooks=[{type="command",command=${tomlString(hook.command)},timeout=${hook.timeoutSec}}]}]`);
  }
  // The state keys hold dots ("config.toml"), which a dotted -c path would split; an inline table
  // with quoted keys keeps them whole.
  const state = hooks.map((h) => `${tomlString(codexHookStateKey(h.event))}={trusted_hash=${tomlString(codexHookHash(h))}}`);
  args.push('-c', `hooks.state={${state.join(',')}}`);
  return args;
}

// rec's hooks for one Claude Code run, as the JSON of a --settings argument. `--settings` is a
// settings layer of its own (flag settings) on top of the user's, project's and local settings
// files, whose hooks Claude runs as well: adding ours there leaves the user's files alone and the
// user's hooks running (both fire: docs/claude.md, "Hooks"). When the user passed --settings too, ours are
// merged into theirs (Claude reads one --settings), appended after their own hooks of each event.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';

// Kept here, not beside the zod payload schemas: this module loads before Claude starts.
/** The hook events `rec claude` wires for its run (Claude Code 2.1.330 names). */
export const CLAUDE_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStop',
] as const;
export type ClaudeHookEvent = (typeof CLAUDE_HOOK_EVENTS)[number];

/**
 * Seconds Claude waits for one of our hooks. `rec hook` only forwards the payload to the run over
 * loopback; if the run is gone it must not hold Claude up for Claude's default of 600 s.
 */
export const HOOK_TIMEOUT_SEC = 10;

/** A settings object: only `hooks` is looked into; everything else is passed on as it is. */
const SettingsObject = z.looseObject({ hooks: z.record(z.string(), z.array(z.unknown())).optional() });
type SettingsObject = z.infer<typeof SettingsObject>;

/** rec's hooks, one matcher group per event (no matcher: every tool). */
export function recHooks(hookCommand: (event: string) => string): Record<ClaudeHookEvent, unknown[]> {
  const hooks = {} as Record<ClaudeHookEvent, unknown[]>;
  for (const event of CLAUDE_HOOK_EVENTS) hooks[event] = [{ hooks: [{ type: 'command', command: hookCommand(event), timeout: HOOK_TIMEOUT_SEC }] }];
  return hooks;
}

/** The user's settings with rec's hooks appended to each event's list (the user's own come first). */
export function mergeHooks(user: SettingsObject, ours: Record<string, unknown[]>): SettingsObject {
  const merged: Record<string, unknown[]> = { ...(user.hooks ?? {}) };
  for (const [event, groups] of Object.entries(ours)) merged[event] = [...(merged[event] ?? []), ...groups];
  return { ...user, hooks: merged };
}

export type UserSettingsValue = { readonly ok: true; readonly settings: SettingsObject } | { readonly ok: false; readonly error: string };

/**
 * The settings a --settings value holds: inline JSON, or the path of a JSON file (relative to the
 * cwd), as Claude reads it. The file is read, never written.
 */
export function readUserSettings(value: string, cwd: string): UserSettingsValue {
  let text = value;
  if (!value.trimStart().startsWith('{')) {
    try {
      text = readFileSync(isAbsolute(value) ? value : resolve(cwd, value), 'utf8');
    } catch (err) {
      return { ok: false, error: `cannot read --settings file ${value}: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `--settings is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const parsed = SettingsObject.safeParse(json);
  return parsed.success ? { ok: true, settings: parsed.data } : { ok: false, error: `--settings: ${parsed.error.issues[0]?.message ?? 'not a settings object'}` };
}

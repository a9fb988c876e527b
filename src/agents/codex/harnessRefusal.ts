// A call Codex's harness refused before its process started: its auto-review (a reviewer model
// deciding escalations in the user's place) denied it, or the review failed or timed out, or a hook
// of the user's denied it (answering PermissionRequest, or blocking it at PreToolUse), or a rule
// forbade it. Codex writes no record of its own for any of these; only the call's output says so
// (docs/codex-auto-review.md §4). None of them is a person's decision. The reviewer's words, a
// PreToolUse hook's and a PermissionRequest hook's deny with no message of its own name who refused;
// any other message does not (a hook's own message and a rule's read alike): the screen's
// `Blocked by hook` cell tells those (hookRefusals.ts).
import type { CodexStrings } from './strings/index.js';

/** What the reviewer did: denied the action, could not finish its review, or ran out of time. */
export type ReviewOutcome = 'denied' | 'failed' | 'timed_out';

/** The hook event whose answer refused a call. */
export type RefusingHook = 'PermissionRequest' | 'PreToolUse';

export interface HarnessRefusal {
  /** Set when the message is one of the reviewer's own. */
  readonly review?: ReviewOutcome;
  /** Set when the words say a hook refused (a PreToolUse block, a PermissionRequest deny with Codex's own message). */
  readonly hook?: RefusingHook;
  /** The refusal's message, unescaped: the reviewer's whole text, or the hook's. */
  readonly message: string;
  /** A denial's rationale as the reviewer gave it; for a failure or timeout, its first line. */
  readonly rationale: string;
}

/** The refusal an output records, or undefined for any other output. */
export function harnessRefusalOf(output: string, strings: CodexStrings): HarnessRefusal | undefined {
  const spec = strings.harnessRefusal;
  if (spec === undefined) return undefined;
  const blocked = spec.preToolUseBlocked;
  if (blocked !== undefined && output.startsWith(blocked.prefix)) {
    // The reason ends at the first separator: a hook's reason is short prose, the command may be anything.
    const end = output.indexOf(blocked.commandSeparator, blocked.prefix.length);
    if (end < 0) return undefined;
    const message = output.slice(blocked.prefix.length, end);
    return { hook: 'PreToolUse', message, rationale: message };
  }
  if (!output.endsWith('}')) return undefined;
  const m = spec.pattern.exec(output);
  if (!m) return undefined;
  const message = unescapeDebug(unescapeDebug(m[1]!));
  const r = spec.reviewer;
  if (message.startsWith(r.denied)) {
    const start = message.indexOf(spec.rationaleStart);
    if (start < 0) return { review: 'denied', message, rationale: firstLine(message) };
    const from = start + spec.rationaleStart.length;
    const end = message.indexOf(spec.rationaleEnd, from);
    return { review: 'denied', message, rationale: message.slice(from, end < 0 ? undefined : end).trim() };
  }
  if (message.startsWith(r.failed)) return { review: 'failed', message, rationale: firstLine(message) };
  if (message.startsWith(r.timedOut)) return { review: 'timed_out', message, rationale: firstLine(message) };
  if (message === spec.hookDenied) return { hook: 'PermissionRequest', message, rationale: message };
  return { message, rationale: firstLine(message) };
}

function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  return nl < 0 ? text : text.slice(0, nl);
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', '"': '"', "'": "'" };

/** One level of Rust's Debug escaping undone (`\n`, `\"`, `\\`, `\u{1b}`); an unknown escape is kept as it is. */
export function unescapeDebug(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(u\{([0-9a-fA-F]{1,6})\}|.)/g, (all, esc: string, hex: string | undefined) => {
    if (hex !== undefined) {
      const code = parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return SIMPLE_ESCAPES[esc] ?? all;
  });
}

// Codex's auto-review ("Approve for me", docs/codex-auto-review.md): with it on, an escalated call
// draws no prompt; Codex asks a reviewer model on the same provider instead, in a request with the
// header `x-openai-subagent: guardian` whose input holds the planned action between `>>> APPROVAL
// REQUEST START` and `>>> APPROVAL REQUEST END`. The reviewer answers with strict JSON. Here: how
// such a request is told from a turn, what it asks about, and the verdict a test scripts for it.
import type { IncomingMessage } from 'node:http';

/** The header Codex 0.171.0 sends on a reviewer request (measured). */
const SUBAGENT_HEADER = 'x-openai-subagent';
const GUARDIAN = 'guardian';
/** The input marker, for a reviewer request without the header (a release that drops it). */
const REQUEST_START = '>>> APPROVAL REQUEST START';
const REQUEST_END = '>>> APPROVAL REQUEST END';
const PLANNED_ACTION = 'Planned action JSON:';

/** What the mock's reviewer says when a test scripted none: a denial with this rationale. */
export const DEFAULT_REVIEW_RATIONALE = 'MOCK-REVIEWER: this action was not authorized by the user.';

/** One review as the mock saw it: the planned action, and how many reviews came before it on this server. */
export interface ReviewRequest {
  /** 0 for the first review this server answered, then 1, 2… */
  readonly index: number;
  /** The planned action's argv, e.g. `["/bin/bash", "-lc", "echo hi"]` (empty when the JSON did not parse). */
  readonly command: readonly string[];
  /** The shell script of a `bash -lc` argv (the `cmd` of the exec_command call), else the argv joined. */
  readonly cmd: string;
  readonly justification?: string;
}

export type ReviewVerdict =
  /** The JSON verdict; with `delayMs`, sent only after that wait. */
  | {
      readonly outcome: 'allow' | 'deny';
      readonly rationale: string;
      readonly riskLevel?: 'low' | 'medium' | 'high' | 'critical';
      readonly userAuthorization?: 'unknown' | 'low' | 'medium' | 'high';
      readonly delayMs?: number;
    }
  /** The stream starts and never finishes (until Codex drops it, or the server closes): a review a user can cut with Esc. */
  | { readonly hang: true };

export type Reviewer = (request: ReviewRequest) => ReviewVerdict;

export const denyAll: Reviewer = () => ({ outcome: 'deny', rationale: DEFAULT_REVIEW_RATIONALE });
export const allowAll: Reviewer = () => ({ outcome: 'allow', rationale: 'MOCK-REVIEWER: a low-risk action in the workspace.' });

/** A reviewer request: by its header, or (without one) by the approval request in its input. */
export function isReviewRequest(req: IncomingMessage, inputText: string): boolean {
  const header = req.headers[SUBAGENT_HEADER];
  if ((Array.isArray(header) ? header : [header]).includes(GUARDIAN)) return true;
  return inputText.includes(REQUEST_START);
}

/** The planned action of the last approval request in the input (a later review carries the earlier ones too). */
export function parseReviewRequest(inputText: string, index: number): ReviewRequest {
  const start = inputText.lastIndexOf(REQUEST_START);
  const end = inputText.indexOf(REQUEST_END, start);
  const section = start < 0 ? '' : inputText.slice(start, end < 0 ? undefined : end);
  const at = section.indexOf(PLANNED_ACTION);
  const action = at < 0 ? undefined : plannedAction(section.slice(at + PLANNED_ACTION.length));
  const command = Array.isArray(action?.command) ? action.command.filter((a): a is string => typeof a === 'string') : [];
  const cmd = command.length === 3 && command[1] === '-lc' ? command[2]! : command.join(' ');
  return { index, command, cmd, ...(typeof action?.justification === 'string' ? { justification: action.justification } : {}) };
}

function plannedAction(text: string): { command?: unknown; justification?: unknown } | undefined {
  const open = text.indexOf('{');
  const close = text.lastIndexOf('}');
  if (open < 0 || close < open) return undefined;
  try {
    return JSON.parse(text.slice(open, close + 1)) as { command?: unknown; justification?: unknown };
  } catch {
    return undefined; // Not JSON: the test still gets the review, with an empty command.
  }
}

/** The assistant text a verdict is sent as: the strict JSON Codex's reviewer contract asks for. */
export function verdictText(v: Extract<ReviewVerdict, { outcome: string }>): string {
  const deny = v.outcome === 'deny';
  return JSON.stringify({
    risk_level: v.riskLevel ?? (deny ? 'high' : 'low'),
    user_authorization: v.userAuthorization ?? (deny ? 'low' : 'high'),
    outcome: v.outcome,
    rationale: v.rationale,
  });
}

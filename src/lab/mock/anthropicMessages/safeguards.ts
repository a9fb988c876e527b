// The auto-mode classifier as the Messages API runs it (measured on 2.1.332, docs/claude-auto-mode.md §2):
// no request of its own. A turn request that carries `safeguards: [{type: "dangerous_tool_use", …}]`
// gets its verdicts in the same streamed reply, as `safeguard_results` in the message_delta's delta,
// keyed by the tool_use ids the reply issues. A test scripts the verdict of each call; by default
// every call is `not_flagged`, so auto mode works without scripting.

/** The verdict a test gives one call. */
export type ClassifierVerdict =
  /** `{type:"evaluated", outcome, explanation?}` for the call. */
  | { readonly outcome: 'not_flagged' | 'flagged'; readonly explanation?: string }
  /** `{type:"unavailable", reason:"error"}` for the call: the classifier failed on it. */
  | 'unavailable'
  /** The call is left out of `tool_uses`; when every call of a reply is, the reply has no `safeguard_results` at all. */
  | 'omit';

/** One tool_use the classifier is asked about. */
export interface ClassifiedCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** 0 for the first call this server was asked to classify, counting across requests. */
  readonly index: number;
}

export type Classifier = (call: ClassifiedCall) => ClassifierVerdict;

/** What the mock answered for one call: for tests to assert that the classifier was asked. */
export interface SentVerdict {
  readonly ts: string;
  readonly scenario: string;
  readonly toolUseId: string;
  readonly name: string;
  readonly index: number;
  readonly verdict: ClassifierVerdict;
}

export const SAFEGUARD_TYPE = 'dangerous_tool_use';

export const allowEverything: Classifier = () => ({ outcome: 'not_flagged' });

/** Whether a request body asks for the classifier's verdicts. */
export function asksForVerdicts(safeguards: readonly { type: string }[] | undefined): boolean {
  return safeguards?.some((s) => s.type === SAFEGUARD_TYPE) ?? false;
}

/** The `safeguard_results` value for one reply's calls, or undefined when every call is omitted. */
export function safeguardResults(verdicts: readonly { toolUseId: string; verdict: ClassifierVerdict }[]): unknown[] | undefined {
  const toolUses: Record<string, unknown> = {};
  for (const { toolUseId, verdict } of verdicts) {
    if (verdict === 'omit') continue;
    if (verdict === 'unavailable') toolUses[toolUseId] = { type: 'unavailable', reason: 'error' };
    else toolUses[toolUseId] = { type: 'evaluated', outcome: verdict.outcome, ...(verdict.explanation !== undefined ? { explanation: verdict.explanation } : {}) };
  }
  if (Object.keys(toolUses).length === 0) return undefined;
  return [{ type: SAFEGUARD_TYPE, status: { type: 'available', tool_uses: toolUses } }];
}

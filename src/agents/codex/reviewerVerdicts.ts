// Ties the auto-review's verdicts (reviewerRollout.ts) to the session's calls: a verdict names the
// command it judged, not the call, so it goes to the first call of that command not judged yet,
// whichever of the two rollouts is read first.
import type { SessionFact } from '../common/agentProfile.js';
import type { KnownCall } from '../common/callLedger.js';
import { callCommand } from './callMatcher.js';
import { START_SLACK_MS } from './sessionCandidates.js';
import { reviewerRollouts, ReviewerRolloutReader, type ReviewVerdict } from './reviewerRollout.js';
import type { CodexStrings } from './strings/index.js';

/** The calls kept waiting for a verdict: a review follows its call within the same turn, so the last few suffice. */
const CALLS_KEPT = 256;

export class ReviewerVerdicts {
  private readonly _seen = new Map<string, boolean>();
  private readonly _readers = new Map<string, ReviewerRolloutReader>();
  /** The session's calls not judged yet, in order, with the command each runs. */
  private readonly _calls: Array<{ readonly callId: string; readonly command: string | undefined }> = [];
  /** Verdicts whose call the session's rollout has not shown yet. */
  private readonly _waiting: ReviewVerdict[] = [];

  constructor(
    private readonly _startedAt: Date,
    private readonly _strings: () => CodexStrings,
  ) {}

  /** The reviewer rollouts of the session whose rollout is `sessionFile`. */
  files(sessionFile: string): readonly string[] {
    return reviewerRollouts(sessionFile, this._startedAt.getTime() - START_SLACK_MS, this._seen);
  }

  /** A line of a reviewer rollout: the verdict it completes, as a fact about its call once known. */
  line(file: string, text: string): SessionFact[] {
    let reader = this._readers.get(file);
    if (!reader) {
      reader = new ReviewerRolloutReader(this._strings);
      this._readers.set(file, reader);
    }
    const verdict = reader.line(text);
    if (verdict === undefined) return [];
    const at = this._calls.findIndex((c) => c.command === verdict.command);
    if (at < 0) {
      this._waiting.push(verdict);
      return [];
    }
    const [call] = this._calls.splice(at, 1);
    return [fact(call!.callId, verdict)];
  }

  /** A call of the session's rollout: the verdict that waited for it, if any. */
  call(call: KnownCall): SessionFact[] {
    const command = callCommand(call, this._strings());
    const at = this._waiting.findIndex((v) => v.command === command);
    if (at < 0) {
      this._calls.push({ callId: call.callId, command });
      if (this._calls.length > CALLS_KEPT) this._calls.shift();
      return [];
    }
    const [verdict] = this._waiting.splice(at, 1);
    return [fact(call.callId, verdict!)];
  }
}

function fact(callId: string, v: ReviewVerdict): SessionFact {
  return { type: 'reviewed', callId, outcome: v.outcome, ...(v.rationale !== undefined ? { rationale: v.rationale } : {}), source: 'session_file' };
}

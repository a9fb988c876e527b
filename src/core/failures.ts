// Fail-open bookkeeping: a recorder part that fails is disabled and remembered, once, so that rec
// can say what stopped working after the agent exits (and the run row records it).

export type RecorderPart = 'screen' | 'recorder' | 'store' | 'hooks' | 'keys' | 'launch';
/** Parts REC_FAULT_INJECT can break: the recorder parts, and rec itself (`crash`). */
export type FaultPart = RecorderPart | 'crash';

export interface PartFailure {
  readonly part: RecorderPart;
  readonly error: string;
}

export class FailureLog {
  private readonly _failures = new Map<RecorderPart, string>();

  constructor(private readonly _debug: (message: string) => void = () => {}) {}

  /** Records the first failure of a part; later ones of the same part go to the debug log only. */
  fail(part: RecorderPart, error: unknown): void {
    const message = oneLine(error);
    this._debug(`${part} failed: ${error instanceof Error && error.stack ? error.stack : message}`);
    if (!this._failures.has(part)) this._failures.set(part, message);
  }

  has(part: RecorderPart): boolean {
    return this._failures.has(part);
  }

  list(): PartFailure[] {
    return [...this._failures].map(([part, error]) => ({ part, error }));
  }
}

export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

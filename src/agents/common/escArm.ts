// Agents whose one Esc while a turn works only arms the interrupt, and whose second Esc cuts
// (OptionRules.escArmsInterrupt: Copilot's `esc esc interrupt`, docs/copilot.md §5). Which Esc is
// the second: the agent's screen asks for it, or the first came so shortly before that the agent
// may not have redrawn its footer yet. Any other key in between disarms.
import type { RecorderClock } from './recorderClock.js';

/**
 * A second Esc this soon after the first cuts even before the footer asks for it; later, the
 * screen's own "press again" decides. Well inside the time the agent keeps the interrupt armed
 * (Copilot: about a second).
 */
export const ESC_ARMED_QUICK_MS = 500;

export class EscArm {
  private _armedAt: number | undefined;

  constructor(private readonly _clock: RecorderClock) {}

  /** An Esc while a turn works: true when it cuts (the second of two), false when it only armed the interrupt. */
  cuts(screenAsksForSecond: boolean): boolean {
    const now = this._clock.now();
    const second = screenAsksForSecond || (this._armedAt !== undefined && now - this._armedAt <= ESC_ARMED_QUICK_MS);
    this._armedAt = second ? undefined : now;
    return second;
  }

  /** Another key came: the next Esc arms again. */
  disarm(): void {
    this._armedAt = undefined;
  }
}

// The exit status convention, in one place (asciinema session.rs): the agent's own code, or
// 128 + signal number when it died by a signal.
import { constants } from 'node:os';

export interface ExitInfo {
  readonly exitCode: number;
  /** Signal number when the process died by a signal. */
  readonly signal?: number;
}

export function toExitStatus(info: ExitInfo): number {
  if (info.signal) return 128 + info.signal;
  return info.exitCode;
}

export function signalNumber(name: NodeJS.Signals): number {
  return constants.signals[name];
}

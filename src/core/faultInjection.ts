// Fail-open is a promise about failures, so tests need failures on demand: REC_FAULT_INJECT lists
// recorder parts (comma-separated) that throw at their first use. Off unless set; costs one Set
// lookup where it is checked.
import type { FaultPart } from './failures.js';

export const FAULT_INJECT_ENV = 'REC_FAULT_INJECT';

export function injectedFaults(env: NodeJS.ProcessEnv): ReadonlySet<FaultPart> {
  const value = env[FAULT_INJECT_ENV];
  if (!value) return new Set();
  return new Set(value.split(',').map((s) => s.trim()) as FaultPart[]);
}

export function injectedFault(part: FaultPart): Error {
  return new Error(`injected ${part} fault (${FAULT_INJECT_ENV})`);
}

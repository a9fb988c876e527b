// An adapter that runs an agent through rec and records the run, but detects nothing yet: used for
// agents whose detectors have not been written, so `rec <agent>` already works as a passthrough.
import type { AgentName } from '../core/events.js';
import type { AgentAdapter, Recorder } from './agentAdapter.js';

export interface PassiveAdapterSpec {
  readonly name: AgentName;
  readonly binName: string;
  readonly binEnvVar: string;
  readonly installHint: string;
}

export function passiveAdapter(spec: PassiveAdapterSpec): AgentAdapter {
  return {
    name: spec.name,
    binName: spec.binName,
    binEnvVar: spec.binEnvVar,
    installHint: spec.installHint,
    prepareLaunch: (ctx) => ({ args: ctx.args, env: ctx.env }),
    createRecorder: (): Recorder => ({
      watching: false,
      handleKey: () => {},
      handleExit: async () => {},
      dispose: () => {},
    }),
  };
}

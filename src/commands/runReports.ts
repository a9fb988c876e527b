// What `rec <agent>` says once, on stderr, after the agent exited and the terminal is back: the
// recorder's failures, the agent's notes, an unverified version, a session file it could not tell
// apart, the decisions it missed. Never while the agent runs: the passthrough is the agent's.
import type { LaunchPlan } from '../agents/agentAdapter.js';
import type { AgentAdapter, AgentModule } from '../agents/agentModule.js';
import type { MissCount } from '../agents/common/missCheck.js';
import { unverifiedVersionText, type VerifiedVersion } from '../agents/verifiedVersions.js';
import type { FailureLog } from '../core/failures.js';
import type { CommandIO } from './commandIO.js';
import type { Recording } from './recording.js';
import { escapeControls } from './terminalText.js';

/** Once, after the agent exited and the terminal is back: what the user should know about the recording. */
export function reportAfterExit(
  io: CommandIO,
  failures: FailureLog,
  plan: LaunchPlan,
  module: AgentModule | undefined,
  adapter: AgentAdapter | undefined,
  recording: Recording | undefined,
): void {
  reportFailures(io, failures);
  for (const note of plan.notes ?? []) io.stderr.write(`rec: ${adapter?.module.name ?? 'agent'}: ${escapeControls(note)}\n`);
  if (recording && module) reportUnverifiedVersion(io, module.name, recording.agentVersion, module.verifiedVersions);
  if (recording?.unboundSession && module) reportUnboundSession(io, module.name, recording.unboundSession);
  if (recording?.misses && module) reportMisses(io, module, recording.agentVersion.version, recording.misses);
}

/** Once, after the agent exited: the agent ran untouched, but rec was not verified on its version. */
function reportUnverifiedVersion(
  io: CommandIO,
  agent: string,
  seen: { readonly version: string | null; readonly verified: boolean | null },
  verifiedOn: readonly VerifiedVersion[],
): void {
  if (seen.version === null || seen.verified !== false) return;
  io.stderr.write(`rec: ${unverifiedVersionText(agent, escapeControls(seen.version), verifiedOn)}; its events are marked agent_version_verified=false\n`);
}

/** Once, after the agent exited: rec could not tell this run's session file from another's. */
function reportUnboundSession(io: CommandIO, agent: string, unbound: { readonly candidates: number; readonly decisions: number }): void {
  const files = unbound.candidates > 1 ? `${unbound.candidates} session files` : 'session files';
  const what = unbound.decisions === 1 ? '1 decision keeps' : `${unbound.decisions} decisions keep`;
  io.stderr.write(
    `rec: ${agent}: ${files} in this folder fitted this run equally (another ${agent} with the same words); ${what} no call id rather than maybe another session's (native.session = "ambiguous")\n`,
  );
}

/** Once, after the agent exited: decisions its own file shows that rec saw nothing of (a changed prompt screen). */
function reportMisses(io: CommandIO, module: AgentModule, version: string | null, misses: MissCount): void {
  if (misses.missed === 0) return;
  const agent = version === null ? module.displayName : `${module.displayName} ${escapeControls(version)}`;
  const decisions = `${misses.decided} decision${misses.decided === 1 ? '' : 's'}`;
  // Two lines: each fits 80 columns whatever the counts and the version.
  io.stderr.write(`rec: missed ${misses.missed} of ${decisions} ${agent} recorded;\nrec: run \`rec doctor ${module.name}\` to check rec on this version\n`);
}

function reportFailures(io: CommandIO, failures: FailureLog): void {
  const list = failures.list();
  if (list.length === 0) return;
  const parts = list.map((f) => `${f.part}: ${f.error}`).join('; ');
  io.stderr.write(`rec: recording was incomplete (the agent itself ran unaffected) — ${parts}\n`);
}

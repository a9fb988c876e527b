// A session of a version rec does not ship verified, but whose latest `rec doctor` run in the sidecar
// passed: merge counts it verified, as the live recorder does (agents/verifiedVersions.ts
// versionVerifiedBy, the one rule). The reader, which knows no sidecar, warned `unknown_version`;
// that warning becomes an `info` saying who verified it, kept in the JSON and not told on stderr.
import { agentModule } from '../agents/registry.js';
import { doctoredVersionText, versionVerifiedBy } from '../agents/verifiedVersions.js';
import type { NativeSession } from '../readers/nativeSession.js';
import type { SidecarReader } from '../store/sidecarReader.js';

export function acknowledgeDoctoredVersion(native: NativeSession, sidecar: SidecarReader | null): void {
  const version = native.agent_version;
  if (sidecar === null || version === null || !native.diagnostics.some((d) => d.code === 'unknown_version')) return;
  const shipped = agentModule(native.agent).verifiedVersions;
  if (versionVerifiedBy(shipped, sidecar.doctorVerifiedVersions(native.agent), version) !== 'doctor') return;
  native.diagnostics = native.diagnostics.map((d) =>
    d.code === 'unknown_version' ? { ...d, severity: 'info', message: doctoredVersionText(native.agent, version, shipped) } : d,
  );
}

// Whether this process runs in a loopback-only network namespace (scripts/test enters one with
// `unshare -n` where the system allows). Without one the suite still runs, relying on each agent's config
// (no analytics, no update check) and loopback proxies, and says so once.
import { readFileSync } from 'node:fs';

let told = false;

/**
 * True when the only network interface is `lo`. Read from /proc/net/dev, which shows the reading
 * process's namespace (/sys/class/net shows the namespace sysfs was mounted in, i.e. the host's).
 */
export function isLoopbackOnly(): boolean {
  try {
    const names = readFileSync('/proc/net/dev', 'utf8')
      .split('\n')
      .slice(2)
      .map((line) => line.split(':')[0]!.trim())
      .filter((name) => name !== '');
    return names.every((name) => name === 'lo');
  } catch {
    // No procfs (not Linux, or a locked-down container): we cannot tell, so assume not isolated.
    return false;
  }
}

/** Prints once per test process when the e2e suite runs on the host network. */
export function noteNetworkIsolation(): void {
  if (told || isLoopbackOnly()) return;
  told = true;
  console.warn('e2e: running without a network namespace (unshare -n unavailable); the agents\' telemetry, update checks and analytics are off in their configs and proxies point at 127.0.0.1');
}

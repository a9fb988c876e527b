// @ts-check
// The fixture recorders run the real agent CLIs; where the system allows (root, unshare, ip), they
// re-run themselves in a loopback-only network namespace so nothing they start can leave this machine.
import { spawnSync } from 'node:child_process';

/** Re-executes this script under `unshare -n` (loopback up) and exits with its status; returns when that is not possible. */
export function reexecInLoopbackNetns(name, fallbackNote) {
  if (!process.env.REC_IN_NETNS && process.getuid?.() === 0 && !process.argv.includes('--no-netns')) {
    const probe = spawnSync('unshare', ['-n', 'true']);
    if (probe.status === 0) {
      const r = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.argv.slice(1)], {
        stdio: 'inherit',
        env: { ...process.env, REC_IN_NETNS: '1' },
      });
      process.exit(r.status ?? 1);
    }
  }
  if (!process.env.REC_IN_NETNS) console.error(`${name}: no network namespace; ${fallbackNote}`);
}

// For the fixture recorders: run this very script again inside a loopback-only network namespace
// (`unshare -n`, lo up) when the system allows it (root, unshare, ip), and exit with its status; say
// once on stderr when it cannot, so a recording made on the host network is never silent about it.
import { spawnSync } from 'node:child_process';

export function reexecInNetns(name, fallbackNote) {
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

// The fixture recorders' shared start. reexecInNetns: run this very script again inside a loopback-only network namespace
// (`unshare -n`, lo up) when the system allows it (root, unshare, ip), and exit with its status; say
// once on stderr when it cannot, so a recording made on the host network is never silent about it.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

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

/**
 * The recorders' command line: `--list` prints the scenarios; otherwise records the named ones (all
 * without names) one after another into outDir, says how long each took, and exits 1 if any failed.
 */
export async function recordChosen(scenarios, outDir, record) {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (process.argv.includes('--list')) {
    for (const s of scenarios) console.log(`${s.name.padEnd(30)} ${s.description}`);
    process.exit(0);
  }
  const chosen = args.length ? scenarios.filter((s) => args.includes(s.name)) : scenarios;
  if (chosen.length === 0) throw new Error(`no scenario named ${args.join(', ')}; try --list`);
  mkdirSync(outDir, { recursive: true });
  let failed = 0;
  for (const scenario of chosen) {
    const t0 = Date.now();
    try {
      await record(scenario);
      console.log(`recorded ${scenario.name} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (err) {
      failed += 1;
      console.error(`FAILED ${scenario.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  process.exit(failed ? 1 : 0);
}

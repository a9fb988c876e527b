// Codex asks about a host only while an administrator's managed network requirements are in force,
// and it reads them from /etc/codex/requirements.toml (docs/codex-prompts.md). The isolated world
// must not write the machine's /etc: the agent runs in a private mount namespace with an overlay on
// /etc whose upper layer holds the requirements file. Codex, and the daemon it starts, see it there;
// nothing outside the namespace does, and the overlay goes with the namespace's last process.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Managed network on, with an allowlist that names none of the hosts the `net` scenario fetches. */
export const MANAGED_NETWORK_REQUIREMENTS = '[experimental_network]\nenabled = true\nallowed_domains = ["allowed.example"]\n';

/** Mounts the overlay ($1: its folder), then runs the command that follows. */
const MOUNT_THEN_RUN = 'set -e; mount -t overlay rec-etc -o "lowerdir=/etc,upperdir=$1/upper,workdir=$1/work" /etc; shift; exec "$@"';

export interface WrappedCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The command run with /etc/codex/requirements.toml holding `requirements`, seen by it alone: its
 * overlay's folders are made in `dir` (the world's base dir).
 */
export function withManagedNetwork(dir: string, command: string, args: readonly string[], requirements = MANAGED_NETWORK_REQUIREMENTS): WrappedCommand {
  const overlay = join(dir, 'etc-overlay');
  mkdirSync(join(overlay, 'upper', 'codex'), { recursive: true });
  mkdirSync(join(overlay, 'work'), { recursive: true });
  writeFileSync(join(overlay, 'upper', 'codex', 'requirements.toml'), requirements);
  return { command: 'unshare', args: ['--mount', '--propagation', 'private', 'sh', '-c', MOUNT_THEN_RUN, 'rec-etc', overlay, command, ...args] };
}

/**
 * Why a private /etc cannot be made here (it needs root, unshare and overlay mounts), or undefined
 * when it can: tried once, on a throwaway overlay.
 */
export function managedNetworkUnavailable(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'rec-etc-probe-'));
  try {
    const { command, args } = withManagedNetwork(dir, 'test', ['-f', '/etc/codex/requirements.toml']);
    const r = spawnSync(command, args, { encoding: 'utf8' });
    if (r.error) return `${command}: ${r.error.message}`;
    return r.status === 0 ? undefined : `a private /etc could not be mounted: ${(r.stderr || `exit ${r.status}`).trim().split('\n')[0]}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Packing rec as `npm pack` does for the registry, and installing the tarball the way a user's
// `npm install -g` lays it out — offline, because tests run in a loopback-only network namespace:
// the prefix gets a lockfile that names the tarball and pins every runtime dependency to the
// repository's own lockfile, so npm takes each package from its cache by integrity.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockEntry {
  readonly dev?: boolean;
  readonly devOptional?: boolean;
  readonly [key: string]: unknown;
}

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
  readonly bin?: Record<string, string>;
  readonly engines?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly allowScripts?: Record<string, boolean>;
}

/** Folders a fresh clone does not have: the install, the build, git's own, ignored scratch. */
const NOT_IN_A_CLONE = new Set(['node_modules', 'dist', '.git', 'tmp', 'bench-results']);

/**
 * The project as a fresh clone has it, without asking git (scripts/test-node-lines runs the suite
 * in a copy that has no .git). The build tools come from the repository's own install.
 */
export function copyWorkTree(repo: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(repo)) {
    if (NOT_IN_A_CLONE.has(entry)) continue;
    cpSync(join(repo, entry), join(to, entry), { recursive: true });
  }
  symlinkSync(join(repo, 'node_modules'), join(to, 'node_modules'));
}

/** `npm pack` in `projectDir` (which runs prepack); returns the tarball's path in `destination`. */
export function npmPack(projectDir: string, destination: string, env: NodeJS.ProcessEnv): string {
  execFileSync('npm', ['pack', '--pack-destination', destination, '--silent'], { cwd: projectDir, env, stdio: 'pipe' });
  const tarballs = readdirSync(destination).filter((f) => f.endsWith('.tgz'));
  if (tarballs.length !== 1) throw new Error(`npm pack left ${tarballs.length} tarballs in ${destination}`);
  return join(destination, tarballs[0]!);
}

/** The paths inside a tarball, without tar's `package/` prefix. */
export function tarballFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball])
    .toString('utf8')
    .split('\n')
    .filter((f) => f !== '')
    .map((f) => f.replace(/^package\//, ''));
}

/**
 * Installs `tarball` into `prefix` from npm's cache alone and returns the installed `rec`'s path.
 * `omitOptional` leaves out the Node 20 SQLite build where this Node does not need it (it is
 * compiled from source, minutes on two cores).
 */
export function installOffline(opts: {
  readonly repo: string;
  readonly tarball: string;
  readonly prefix: string;
  readonly omitOptional: boolean;
  readonly env: NodeJS.ProcessEnv;
}): string {
  const manifest = JSON.parse(readFileSync(join(opts.repo, 'package.json'), 'utf8')) as PackageJson;
  const lock = JSON.parse(readFileSync(join(opts.repo, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const spec = `file:${opts.tarball}`;
  const packages: Record<string, unknown> = {
    '': { dependencies: { [manifest.name]: spec } },
    [`node_modules/${manifest.name}`]: {
      version: manifest.version,
      resolved: spec,
      license: manifest.license,
      bin: manifest.bin,
      engines: manifest.engines,
      dependencies: manifest.dependencies,
      optionalDependencies: manifest.optionalDependencies,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/') || entry.dev === true) continue;
    const { devOptional: _devOptional, ...kept } = entry;
    packages[path] = kept;
  }
  mkdirSync(opts.prefix, { recursive: true });
  writeFileSync(
    join(opts.prefix, 'package.json'),
    // The same install scripts approved as for the repository (npm 12 runs no others).
    JSON.stringify({ private: true, dependencies: { [manifest.name]: spec }, allowScripts: manifest.allowScripts }, null, 2),
  );
  writeFileSync(
    join(opts.prefix, 'package-lock.json'),
    JSON.stringify({ name: 'rec-install-test', lockfileVersion: 3, requires: true, packages }, null, 2),
  );
  const args = ['ci', '--offline', '--no-audit', '--no-fund', ...(opts.omitOptional ? ['--omit=optional'] : [])];
  execFileSync('npm', args, { cwd: opts.prefix, env: opts.env, stdio: 'pipe' });
  return join(opts.prefix, 'node_modules', '.bin', Object.keys(manifest.bin ?? {})[0] ?? manifest.name);
}

// The version of the Gemini CLI this run starts: the package.json of @google/gemini-cli above the
// binary found the way rec finds it ($REC_GEMINI_BIN, else `gemini` on PATH), links resolved. The
// banner on screen (`Gemini CLI v<version>`) says the same once drawn; this is known before.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { z } from 'zod';

const PACKAGE_NAME = '@google/gemini-cli';
/** How many folders above the binary to look for its package.json (bundle/gemini.js is two deep). */
const MAX_LEVELS_UP = 6;

const PackageJson = z.object({ name: z.string(), version: z.string() });

function findBinary(env: NodeJS.ProcessEnv, binEnvVar: string, binName: string): string | undefined {
  const override = env[binEnvVar];
  if (override) return isAbsolute(override) ? override : undefined;
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, binName);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function installedGeminiVersion(env: NodeJS.ProcessEnv, binEnvVar: string, binName: string): string | undefined {
  const bin = findBinary(env, binEnvVar, binName);
  if (!bin) return undefined;
  let dir: string;
  try {
    dir = dirname(realpathSync(bin));
  } catch {
    // A dangling link: Gemini will not start either; the banner is the only witness then.
    return undefined;
  }
  for (let level = 0; level < MAX_LEVELS_UP; level++) {
    try {
      const pkg = PackageJson.safeParse(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
      if (pkg.success && pkg.data.name === PACKAGE_NAME) return pkg.data.version;
    } catch {
      // No package.json at this level (or not JSON): keep going up.
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

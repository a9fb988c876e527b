// rec's own version, from package.json (read once, lazily).
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function readVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}

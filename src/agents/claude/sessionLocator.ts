// This run's transcript: ~/.claude/projects/<cwd as a slug>/<session id>.jsonl. The slug rule was
// observed for one case only (docs/claude.md), so the file is looked for by its name in every project
// folder rather than computed. The session id is the one rec gave Claude (launch.ts); without one
// (--resume, --continue) the hooks name the file.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { claudeModule } from './module.js';

/** The project folders under Claude's session roots (none before Claude creates its first transcript). */
function projectDirs(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const root of claudeModule.sessionRoots(env)) {
    let projects: string[];
    try {
      projects = readdirSync(root);
    } catch {
      // No projects folder yet: Claude creates it with the first transcript.
      continue;
    }
    for (const project of projects) out.push(join(root, project));
  }
  return out;
}

export function findTranscript(env: NodeJS.ProcessEnv, sessionId: string): string | undefined {
  for (const dir of projectDirs(env)) {
    const file = join(dir, `${sessionId}.jsonl`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** Every session transcript of every project (`<root>/<project>/*.jsonl`). */
export function listTranscripts(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const dir of projectDirs(env)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      // Not a folder, or gone: nothing in it.
      continue;
    }
    for (const name of names) if (name.endsWith('.jsonl')) out.push(join(dir, name));
  }
  return out;
}

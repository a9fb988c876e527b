// This run's transcript: ~/.claude/projects/<cwd as a slug>/<session id>.jsonl. The slug rule was
// observed for one case only (README §7), so the file is looked for by its name in every project
// folder rather than computed. The session id is the one rec gave Claude (launch.ts); without one
// (--resume, --continue) the hooks name the file.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { claudeModule } from './module.js';

export function findTranscript(env: NodeJS.ProcessEnv, sessionId: string): string | undefined {
  for (const root of claudeModule.sessionRoots(env)) {
    let projects: string[];
    try {
      projects = readdirSync(root);
    } catch {
      // No projects folder yet: Claude creates it with the first transcript.
      continue;
    }
    for (const project of projects) {
      const file = join(root, project, `${sessionId}.jsonl`);
      if (existsSync(file)) return file;
    }
  }
  return undefined;
}

/** Every session transcript of every project (`<root>/<project>/*.jsonl`). */
export function listTranscripts(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const root of claudeModule.sessionRoots(env)) {
    let projects: string[];
    try {
      projects = readdirSync(root);
    } catch {
      // No projects folder yet: no earlier session to resume.
      continue;
    }
    for (const project of projects) {
      let names: string[];
      try {
        names = readdirSync(join(root, project));
      } catch {
        // Not a folder, or gone: nothing in it.
        continue;
      }
      for (const name of names) if (name.endsWith('.jsonl')) out.push(join(root, project, name));
    }
  }
  return out;
}

// Where GitHub Copilot CLI keeps its files (docs/copilot.md §1): $COPILOT_HOME, else ~/.copilot; its
// sessions are session-state/<sessionId>/events.jsonl. Kept free of heavy imports: a registry row
// and the launch read it.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** $COPILOT_HOME, else ~/.copilot; an empty COPILOT_HOME counts as unset. */
export function copilotHome(env: Readonly<Record<string, string | undefined>>): string {
  return env['COPILOT_HOME'] || join(env['HOME'] || homedir(), '.copilot');
}

/** The folder holding one folder per session (AgentModule.sessionRoots). */
export function copilotSessionRoots(env: Readonly<Record<string, string | undefined>>): string[] {
  return [join(copilotHome(env), 'session-state')];
}

/** The session id is a UUID (session.start `sessionId`), and the folder is named after it. */
const SESSION_FILE = /(?:^|\/)session-state\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/events\.jsonl$/i;

/** Whether a file found under the session roots is a session's events file (AgentModule.isSessionFile). */
export function isCopilotSessionFile(path: string): boolean {
  return SESSION_FILE.test(path.replace(/\\/g, '/'));
}

/** Whether a path says Copilot wrote the file (AgentModule.pathSaysAgent): its home, or its session file's place. */
export function pathSaysCopilot(path: string): boolean {
  return /\/\.copilot\//.test(path) || isCopilotSessionFile(path);
}

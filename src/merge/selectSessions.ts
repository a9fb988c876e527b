// Which sessions a `rec merge` / `rec stats` run reads: the files named, a run's session, or every
// session of an agent since a time (the agents' default folders plus runs whose file the agent
// deleted, rebuilt from the sidecar's agent_records).
import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AGENT_NAMES, agentModule, findAgentModule } from '../agents/registry.js';
import type { MergeTask } from './mergeTask.js';
import type { Diagnostic, MergeAgent } from './mergedSession.js';
import type { SidecarReader } from '../store/sidecarReader.js';

export interface Selection {
  files: string[];
  runId: string | null;
  agent: MergeAgent | null;
  since: Date | null;
}

export interface SelectedTasks {
  tasks: MergeTask[];
  /** Bytes of the selected files (for the progress bar and the choice of workers). */
  sizes: number[];
  diagnostics: Diagnostic[];
  /** True when the user named inputs (files or a run), false when they were discovered. */
  explicit: boolean;
}

/** The folders each agent keeps its sessions in, honouring the agents' own env overrides. */
export function agentRoots(agent: MergeAgent, env: NodeJS.ProcessEnv): string[] {
  return agentModule(agent).sessionRoots(env);
}

function isSessionFile(agent: MergeAgent | null, path: string): boolean {
  if (agent !== null) return agentModule(agent).isSessionFile(path);
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.endsWith('.jsonl') || /^session-.*\.json$/.test(name);
}

/** Walks a folder for session files; unreadable folders are skipped (they are not sessions). */
async function walk(dir: string, agent: MergeAgent | null, out: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    // A missing or unreadable folder simply holds no sessions for us.
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await walk(p, agent, out);
    else if (e.isFile() && isSessionFile(agent, p)) out.push(p);
  }
}

export async function selectSessions(sel: Selection, env: NodeJS.ProcessEnv, cwd: string, sidecar: SidecarReader | null): Promise<SelectedTasks> {
  const tasks: MergeTask[] = [];
  const sizes: number[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  const addFile = async (path: string, agent: MergeAgent | null, since: Date | null): Promise<void> => {
    const abs = resolve(cwd, path);
    if (seen.has(abs)) return;
    let size = 0;
    try {
      // Synchronous on purpose, like the reads: one stat per file, and a thread-pool round trip
      // for each cost more than the stat itself (docs/merge.md, "Why the code is shaped this way").
      const st = statSync(abs);
      if (since && st.mtime < since) return;
      size = st.size;
    } catch {
      // Reported by the reader with its own diagnostic (missing or unreadable) when the task runs.
    }
    seen.add(abs);
    tasks.push({ kind: 'file', path: abs, agent });
    sizes.push(size);
  };

  for (const f of sel.files) {
    const abs = resolve(cwd, f);
    let isDir = false;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      // Not there: a file task still reports it as missing.
    }
    if (isDir) {
      const found: string[] = [];
      await walk(abs, sel.agent, found);
      for (const p of found) await addFile(p, sel.agent, sel.since);
    } else await addFile(abs, sel.agent, null);
  }

  if (sel.runId !== null) {
    const run = sidecar?.run(sel.runId);
    if (!run) {
      diagnostics.push({ severity: 'error', code: 'missing_file', message: `no run ${sel.runId} in the sidecar`, file: sidecar?.path ?? null, line: null });
    } else await addRun(run.id, run.agent_session_file, asAgent(run.agent));
  }

  const discover = sel.files.length === 0 && sel.runId === null;
  if (discover) {
    const agents: readonly MergeAgent[] = sel.agent ? [sel.agent] : AGENT_NAMES;
    for (const agent of agents) {
      for (const root of agentRoots(agent, env)) {
        const found: string[] = [];
        await walk(root, agent, found);
        for (const p of found) await addFile(p, agent, sel.since);
      }
    }
    // Runs whose session file is gone (Gemini deletes some at exit): rebuild from agent_records.
    if (sidecar) {
      const withRecords = sidecar.runsWithRecords();
      for (const run of sidecar.runs()) {
        const agent = asAgent(run.agent);
        if (agent === null || (sel.agent && agent !== sel.agent) || !withRecords.has(run.id)) continue;
        if (sel.since && run.started_at && Date.parse(run.started_at) < sel.since.getTime()) continue;
        await addRun(run.id, run.agent_session_file, agent);
      }
    }
  }
  return { tasks, sizes, diagnostics, explicit: !discover };

  async function addRun(runId: string, file: string | null, agent: MergeAgent | null): Promise<void> {
    if (file !== null && exists(file)) {
      await addFile(file, agent, null);
      return;
    }
    const sources = new Set(sidecar?.recordSources(runId) ?? []);
    for (const source of sources) {
      if (seen.has(`${runId}:${source}`) || exists(source)) continue;
      seen.add(`${runId}:${source}`);
      tasks.push({ kind: 'records', runId, sourceFile: source, agent });
      sizes.push(0);
    }
    if (sources.size === 0 && file !== null && !discover) {
      diagnostics.push({ severity: 'error', code: 'missing_file', message: `run ${runId}: the agent's session file is gone and the sidecar holds no copy`, file, line: null });
    }
  }
}

function asAgent(name: string): MergeAgent | null {
  return findAgentModule(name)?.name ?? null;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    // Any stat failure means we cannot read it as a file here.
    return false;
  }
}

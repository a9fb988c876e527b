// Whether another run of an agent works in a folder, read from the real process table: real child
// processes, started in temp folders, stand for the agent (a script named like the agent's) and for
// the run's own agent process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentProcessTree, agentRunsBeside, BESIDE_HOLD_MS, besideProbe } from '../../../../src/agents/common/agentsBeside.js';

const isAgent = (argv: readonly string[]) => argv.some((a) => a.endsWith('/fake-agent.js'));

let base: string | undefined;
const started: ChildProcess[] = [];
afterEach(() => {
  // Each was started as the leader of its own group: its children, orphaned or not, go with it.
  for (const p of started.splice(0)) {
    try {
      process.kill(-p.pid!, 'SIGKILL');
    } catch {
      // The whole group has exited already.
    }
  }
  if (base) rmSync(base, { recursive: true, force: true });
  base = undefined;
});

function folders() {
  base = mkdtempSync(join(tmpdir(), 'rec-beside-'));
  const project = join(base, 'project');
  const elsewhere = join(base, 'elsewhere');
  mkdirSync(project);
  mkdirSync(elsewhere);
  // Prints `ready` once running, then waits to be stopped.
  const agent = join(base, 'fake-agent.js');
  writeFileSync(agent, "process.stdout.write('ready\\n'); setInterval(() => {}, 60_000);\n");
  return { project, elsewhere, agent };
}

/** Starts `argv` in `cwd` and resolves once it printed `ready`. */
function start(argv: readonly string[], cwd: string): Promise<number> {
  const child = spawn(argv[0]!, argv.slice(1), { cwd, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready')) resolve(child.pid!);
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${argv.join(' ')} exited (${code}) before it was ready`)));
  });
}

/** A process of the run's own that is no agent (rec's pty child, say). */
const startOwn = (cwd: string) => start([process.execPath, '-e', "process.stdout.write('ready\\n'); setInterval(() => {}, 60_000)"], cwd);

describe.runIf(process.platform === 'linux')('agentRunsBeside, on the real process table', () => {
  it("another agent process working in the run's folder is beside it", async () => {
    const { project, agent } = folders();
    const own = await startOwn(project);
    await start([process.execPath, agent], project);
    expect(agentRunsBeside({ ownPid: own, cwd: project, isAgent })).toBe(true);
  });

  it('no agent process in the folder but the run\'s own: none is beside it', async () => {
    const { project, agent } = folders();
    const own = await start([process.execPath, agent], project);
    expect(agentRunsBeside({ ownPid: own, cwd: project, isAgent })).toBe(false);
  });

  it("the agent relaunched as a child of the run's own process is the run's own", async () => {
    const { project, agent } = folders();
    // A shell that starts the agent as its child, the way Gemini relaunches itself.
    const own = await start(['sh', '-c', `'${process.execPath}' '${agent}'; :`], project);
    expect(agentRunsBeside({ ownPid: own, cwd: project, isAgent })).toBe(false);
  });

  it('an agent process working in another folder is not beside it', async () => {
    const { project, elsewhere, agent } = folders();
    const own = await startOwn(project);
    await start([process.execPath, agent], elsewhere);
    expect(agentRunsBeside({ ownPid: own, cwd: project, isAgent })).toBe(false);
  });

  it("a process in the folder that the agent's predicate does not recognise is not beside it", async () => {
    const { project } = folders();
    const own = await startOwn(project);
    await startOwn(project);
    expect(agentRunsBeside({ ownPid: own, cwd: project, isAgent })).toBe(false);
  });

  it('once the run\'s own process has exited, the agent child it left running counts as beside (errs towards "maybe")', async () => {
    const { project, agent } = folders();
    const own = await start(['sh', '-c', `'${process.execPath}' '${agent}' & wait`], project);
    expect(agentRunsBeside({ ownPid: own, cwd: project, isAgent })).toBe(false);
    const shell = started[0]!;
    const gone = new Promise((resolve) => shell.once('exit', resolve));
    process.kill(own, 'SIGKILL');
    await gone;
    expect(agentRunsBeside({ ownPid: own, cwd: project, isAgent })).toBe(true);
  });

  it("agentProcessTree: the run's own process and its descendants, not another process", async () => {
    const { project, agent } = folders();
    const own = await start(['sh', '-c', `'${process.execPath}' '${agent}'; :`], project);
    const other = await start([process.execPath, agent], project);
    const tree = agentProcessTree(own);
    expect(tree.has(own)).toBe(true);
    // The shell's child: the agent it started.
    expect(tree.size).toBe(2);
    expect(tree.has(other)).toBe(false);
    expect(tree.has(process.pid)).toBe(false);
  });

  it('besideProbe holds a "beside" answer for BESIDE_HOLD_MS, and asks again after it; "none" is asked again every time', async () => {
    const { project, agent } = folders();
    const own = await startOwn(project);
    let now = 0;
    const probe = besideProbe({ ownPid: own, cwd: project, isAgent }, () => now);
    expect(probe()).toBe(false);
    await start([process.execPath, agent], project);
    // "none" was not held: the agent started since is seen at once.
    expect(probe()).toBe(true);
    process.kill(-started[1]!.pid!, 'SIGKILL');
    await new Promise((resolve) => started[1]!.once('exit', resolve));
    now = BESIDE_HOLD_MS - 1;
    expect(probe()).toBe(true);
    now = BESIDE_HOLD_MS;
    expect(probe()).toBe(false);
  });
});

// `rec copilot` on the REAL pinned GitHub Copilot CLI against rec's mock Messages server (BYOK,
// offline): every prompt and key the recordings measured, played by the same key scripts
// (src/agents/copilot/bench/recordedScenarios.ts). Each test checks the sidecar's decisions, that
// every call id in them is one of Copilot's own toolCallIds in its events.jsonl, and that `rec merge
// --run` and `rec stats --run` carry every decision. Sequential in one file: each test owns a fresh HOME, a Copilot and a
// mock; the unpacked JavaScript is shared by the file's runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REASON } from '../../../src/agents/copilot/bench/mockScenarios.js';
import { SCENARIOS } from '../../../src/agents/copilot/bench/recordedScenarios.js';
import { readEventsFile } from '../../support/copilot/readEvents.js';
import { AGENT_VERSION } from '../../support/copilot/env.js';
import { missingPart, startRec, waitReady, type RecSession } from '../../support/copilot/recSession.js';
import { expectJourneys } from '../../support/journey.js';
import { readRuns } from '../../support/sidecarRows.js';

/** One scenario: Copilot's start, a model turn or two, the quit; generous for 2 loaded cores. */
const TEST_TIMEOUT_MS = 180_000;
const NO_AND_TELL = 'No, and tell Copilot what to do differently (Esc to stop)';

/** The fields of a sidecar row a case checks; any left out is not checked. */
type Want = Readonly<Record<string, unknown>> & { readonly type: string };

interface Case {
  readonly name: string;
  /** The decisions (prompts left out), in the order they were recorded. */
  readonly rows: readonly Want[];
  /** How many prompt rows. */
  readonly prompts: number;
}

const approve = (kind: string, trigger: string, scope = 'once', more: Partial<Want> = {}): Want => ({ type: 'approval', kind, trigger, scope, ...more });
const reject = (kind: string, trigger: string, more: Partial<Want> = {}): Want => ({ type: 'rejection', kind, trigger, scope: null, ...more });
const reasonGiven = (kind: string): Want => reject(kind, 'digit', { reason: REASON, reason_source: 'inline' });

const CASES: readonly Case[] = [
  { name: 'bash-approve-digit', prompts: 1, rows: [approve('command', 'digit', 'once', { option_label: 'Yes' })] },
  { name: 'bash-approve-enter', prompts: 1, rows: [approve('command', 'enter', 'once', { option_label: 'Yes' })] },
  { name: 'bash-approve-arrows', prompts: 1, rows: [approve('command', 'enter', 'once', { option_label: 'Yes' })] },
  { name: 'bash-approve-location', prompts: 1, rows: [approve('command', 'digit', 'always')] },
  { name: 'bash-reject-esc', prompts: 1, rows: [reject('command', 'esc', { option_label: null, reason_source: 'none' })] },
  { name: 'bash-reject-ctrlc', prompts: 1, rows: [reject('command', 'ctrl_c', { option_label: null })] },
  { name: 'bash-reject-reason', prompts: 1, rows: [{ ...reasonGiven('command'), option_label: NO_AND_TELL }] },
  { name: 'bash-reject-reason-esc', prompts: 1, rows: [reject('command', 'esc', { reason: null })] },
  { name: 'create-approve', prompts: 1, rows: [approve('edit', 'digit')] },
  { name: 'create-reject-esc', prompts: 1, rows: [reject('edit', 'esc')] },
  { name: 'create-approve-location', prompts: 1, rows: [approve('edit', 'digit', 'always')] },
  { name: 'edit-reject-reason', prompts: 1, rows: [reasonGiven('edit')] },
  { name: 'path-reject-digit', prompts: 1, rows: [reject('permission', 'digit', { option_label: 'No (Esc)' })] },
  { name: 'path-reject-esc', prompts: 1, rows: [reject('permission', 'esc')] },
  { name: 'path-approve-session', prompts: 1, rows: [approve('permission', 'digit', 'session')] },
  { name: 'url-approve', prompts: 2, rows: [approve('network', 'digit'), approve('command', 'digit')] },
  { name: 'url-reject-esc', prompts: 1, rows: [reject('network', 'esc')] },
  { name: 'url-approve-always', prompts: 2, rows: [approve('network', 'digit', 'always'), reject('command', 'esc')] },
  { name: 'mcp-approve', prompts: 1, rows: [approve('mcp', 'digit')] },
  { name: 'mcp-reject-esc', prompts: 1, rows: [reject('mcp', 'esc')] },
  { name: 'mcp-approve-location', prompts: 1, rows: [approve('mcp', 'digit', 'always')] },
  { name: 'parallel-second-esc', prompts: 2, rows: [approve('command', 'digit'), reject('command', 'esc'), { type: 'skipped', kind: 'command' }] },
  { name: 'parallel-first-reason', prompts: 3, rows: [reasonGiven('command'), approve('command', 'digit'), approve('command', 'digit')] },
  { name: 'sleep-esc-esc-running', prompts: 1, rows: [approve('command', 'digit'), { type: 'interruption', kind: 'tool', trigger: 'esc' }] },
  { name: 'sleep-ctrlc-running', prompts: 1, rows: [approve('command', 'digit'), { type: 'interruption', kind: 'tool', trigger: 'ctrl_c' }] },
  { name: 'slowtext-esc-esc', prompts: 0, rows: [{ type: 'interruption', kind: 'response', trigger: 'esc' }] },
  { name: 'slowtext-ctrlc', prompts: 0, rows: [{ type: 'interruption', kind: 'response', trigger: 'ctrl_c' }] },
  { name: 'deny-tool-rule', prompts: 0, rows: [{ type: 'rejection', kind: 'command', trigger: 'rule', decided_by: 'rule' }] },
  { name: 'askuser-esc', prompts: 0, rows: [] },
];

let session: RecSession | undefined;
let pkgCache: string;

beforeAll(() => {
  const missing = missingPart();
  if (missing) throw new Error(missing);
  pkgCache = mkdtempSync(join(tmpdir(), 'rec-copilot-pkg-'));
});
afterEach(async () => {
  await session?.dispose();
  session = undefined;
});
afterAll(() => rmSync(pkgCache, { recursive: true, force: true }));

/** The toolCallIds of the calls in Copilot's own events.jsonl. */
async function copilotCallIds(s: RecSession): Promise<Set<string>> {
  const files = s.env.eventFiles();
  expect(files, 'one events.jsonl').toHaveLength(1);
  const session = await readEventsFile(files[0]!);
  return new Set(session.calls.map((c) => c.call_id));
}

/**
 * The cases played again with every deciding key sent the instant its screen asks (no reaction
 * time): Copilot 1.0.102 takes such keys (no dropped key was seen), and rec must record the same.
 */
const INSTANT = ['bash-approve-digit', 'bash-reject-esc', 'bash-reject-reason', 'mcp-reject-esc'];

async function play(c: Case, keySettleMs?: number): Promise<void> {
  const script = SCENARIOS.find((x) => x.name === c.name);
  if (!script) throw new Error(`no key script ${c.name}`);
  session = await startRec({ pkgCacheHome: pkgCache, ...(script.args ? { args: script.args } : {}), ...(script.mcpServer ? { mcpServer: true } : {}) });
  await waitReady(session);
  const driver = keySettleMs === undefined ? session.driver : { ...session.driver, keySettleMs };
  await script.run(driver);
  const exit = await (script.quit ? script.quit(driver).then(() => session!.proc.expectExit(30_000)) : session.quit());
  expect(exit.exitCode).toBe(0);
  expect(session.server.requests.filter((r) => r.kind === 'escape'), 'requests beyond 127.0.0.1').toEqual([]);

  const rows = session.rows();
  const decisions = rows.filter((r) => r.type !== 'prompt' && r.type !== 'miss');
  expect(rows.filter((r) => r.type === 'miss'), 'misses').toEqual([]);
  expect(rows.filter((r) => r.type === 'prompt')).toHaveLength(c.prompts);
  expect(decisions.map((r) => r.type)).toEqual(c.rows.map((w) => w.type));
  decisions.forEach((r, i) => expect(r, `decision ${i + 1}`).toMatchObject(c.rows[i]!));
  const callIds = await copilotCallIds(session);
  for (const r of rows.filter((x) => x.type !== 'interruption' || x.kind === 'tool')) {
    expect(callIds, `${r.type} ${r.call_id}: one of Copilot's toolCallIds`).toContain(r.call_id);
  }
  const [run] = readRuns(session.dbPath);
  expect(run).toMatchObject({ agent: 'copilot', agent_version: AGENT_VERSION });
  expect(run!.agent_session_file).toBe(session.env.eventFiles()[0]);
  await expectJourneys(session.dbPath, session.env.env);
}

describe(`rec copilot on the real GitHub Copilot CLI ${AGENT_VERSION}`, () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => play(c), TEST_TIMEOUT_MS);
  it.each(CASES.filter((c) => INSTANT.includes(c.name)).map((c) => [c.name, c] as const))('%s, every key the instant its screen asks', async (_name, c) => play(c, 0), TEST_TIMEOUT_MS);
});

// rec doctor's refusals (one line, status 2, before any agent runs) and its report's width. The
// conformance runs themselves are proved on the real Codex (test/e2e/codex/recDoctor.test.ts).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { checkScenarios, doctorCommand } from '../../../src/commands/doctor.js';
import type { DoctorKit } from '../../../src/lab/bench.js';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import { DOCTOR_WIDTH, doctorReport, type DoctorAgentResult } from '../../../src/commands/doctorReport.js';
import { checkRows, rowLabel } from '../../../src/lab/conformance.js';
import { CODEX_CONFORMANCE } from '../../../src/agents/codex/bench/conformance.js';
import { geminiIsolationProblem } from '../../../src/agents/gemini/bench/env.js';
import { runCommand } from '../../support/runCommand.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';

let dir: string | undefined;
/** Every scratch folder of the current test: a test may take several. */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  dir = undefined;
});

function scratch(): string {
  dir = mkdtempSync(join(tmpdir(), 'rec-doctor-unit-'));
  dirs.push(dir);
  return dir;
}

async function doctor(args: string[], env: NodeJS.ProcessEnv = { PATH: '/nonexistent' }) {
  const r = await runCommand(doctorCommand, args, env);
  return { ...r, lines: r.stderr.trimEnd().split('\n') };
}

describe('rec doctor refuses in one line, before running anything', () => {
  it('an unknown agent', async () => {
    const r = await doctor(['nope']);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([`rec doctor: unknown agent 'nope' (one of ${AGENT_NAMES.join(', ')})`]);
  });

  it('--agent-bin with two agents', async () => {
    const r = await doctor(['codex', 'claude', '--agent-bin', '/bin/true']);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual(['rec doctor: --agent-bin needs exactly one agent']);
  });

  it('--scenario with two agents', async () => {
    const r = await doctor(['codex', 'claude', '--scenario', 'reject (Esc)']);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual(['rec doctor: --scenario needs exactly one agent']);
  });

  it('a scenario the agent has not, with the names it has', async () => {
    const r = await doctor(['codex', '--scenario', 'nope']);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([`rec doctor: codex: no scenario 'nope' (its scenarios: ${CODEX_CONFORMANCE.map((s) => s.script).join(', ')})`]);
  });

  it('a codex that is not installed', async () => {
    const r = await doctor(['codex']);
    expect(r.code).toBe(2);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(/^rec doctor: codex not found: no executable codex on PATH/);
  });

  it('an executable outside an @openai/codex package: its version, which a result is kept under, is unknown', async () => {
    const bin = join(scratch(), 'codex');
    writeFileSync(bin, '#!/bin/sh\nexit 0\n');
    chmodSync(bin, 0o755);
    const r = await doctor(['codex', '--agent-bin', bin]);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([`rec doctor: codex: refused: ${bin} is not in an @openai/codex package, so its version is unknown and a result could not be kept for it`]);
  });

  it('a codex that never asks the mock model (here: it exits at once, as at a login it insists on)', async () => {
    const pkg = join(scratch(), 'node_modules', '@openai', 'codex');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@openai/codex', version: '0.0.1-fake' }));
    const bin = join(pkg, 'bin', 'codex.js');
    writeFileSync(bin, '#!/bin/sh\necho "Sign in with ChatGPT"\nexit 1\n');
    chmodSync(bin, 0o755);
    const db = join(dir!, 'rec.db');
    const r = await doctor(['codex', '--agent-bin', bin, '--db', db], { PATH: process.env.PATH ?? '/usr/bin:/bin' });
    expect(r.code).toBe(2);
    expect(r.lines.at(-1)).toMatch(
      /^rec doctor: codex 0\.0\.1-fake: refused: it never asked rec's mock model on 127\.0\.0\.1 \(the agent exited \(status 1\) before its composer showed\), so rec cannot isolate it; nothing was recorded$/,
    );
    expect(r.stdout).toBe('');
  }, 60_000);

  it('a claude that never asks the mock model (here: it exits at once, as at a login it insists on)', async () => {
    const pkg = join(scratch(), 'node_modules', '@anthropic-ai', 'claude-code');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@anthropic-ai/claude-code', version: '0.0.1-fake' }));
    const bin = join(pkg, 'bin', 'claude.exe');
    writeFileSync(bin, '#!/bin/sh\necho "Select login method"\nexit 1\n');
    chmodSync(bin, 0o755);
    const r = await doctor(['claude', '--agent-bin', bin, '--db', join(dir!, 'rec.db')], { PATH: process.env.PATH ?? '/usr/bin:/bin' });
    expect(r.code).toBe(2);
    expect(r.lines.at(-1)).toMatch(
      /^rec doctor: claude 0\.0\.1-fake: refused: it never asked rec's mock model on 127\.0\.0\.1 \(the agent exited \(status 1\) before its composer showed\), so rec cannot isolate it; nothing was recorded$/,
    );
    expect(r.stdout).toBe('');
  }, 60_000);

  it('a gemini that never asks the mock model: refused the same way, nothing recorded', async () => {
    const pkg = join(scratch(), 'node_modules', '@google', 'gemini-cli');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@google/gemini-cli', version: '0.0.1-fake' }));
    const bin = join(pkg, 'dist', 'index.js');
    writeFileSync(bin, '#!/bin/sh\necho "Waiting for authentication..."\nexit 41\n');
    chmodSync(bin, 0o755);
    const db = join(dir!, 'rec.db');
    const r = await doctor(['gemini', '--agent-bin', bin, '--db', db], { PATH: process.env.PATH ?? '/usr/bin:/bin' });
    expect(r.code).toBe(2);
    expect(r.lines.at(-1)).toMatch(/^rec doctor: gemini 0\.0\.1-fake: refused: it never asked rec's mock model on 127\.0\.0\.1 \(the agent exited \(status 41\) before its composer showed\)/);
    expect(existsSync(db)).toBe(false);
  }, 60_000);
});

describe("Gemini's isolation check: the machine's system settings win over the temporary HOME's", () => {
  const settings = (body: unknown) => {
    const file = join(scratch(), 'settings.json');
    writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
    return geminiIsolationProblem({ GEMINI_CLI_SYSTEM_SETTINGS_PATH: file });
  };

  it('refuses a system layer that picks a login, telemetry or statistics, or cannot be read', () => {
    expect(settings({ security: { auth: { enforcedType: 'oauth-personal' } }, telemetry: { enabled: true } })).toMatch(/ sets security\.auth, telemetry, which Gemini applies over rec's isolated settings$/);
    expect(settings('{ not json')).toMatch(/cannot be read as JSON/);
  });

  it('accepts none, or one that leaves those alone', () => {
    expect(geminiIsolationProblem({ GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/nonexistent/settings.json' })).toBeUndefined();
    expect(settings({ ui: { theme: 'Default' }, security: { folderTrust: { enabled: true } } })).toBeUndefined();
  });
});

function result(o: Partial<DoctorAgentResult> = {}): DoctorAgentResult {
  const scenarios = CODEX_CONFORMANCE.map((s, i) => {
    const labels = s.expected.map(rowLabel);
    const pass = i !== 2;
    return {
      name: s.name,
      expected: labels,
      seen: pass ? labels : [],
      pass,
      problem: pass ? null : `0 rows recorded, ${labels.length} expected; ${'a long explanation '.repeat(8)}`,
      capture: pass ? null : `/home/someone/.local/share/rec/doctor/2026-11-26T12-00-00-000Z-codex-0.169.0-${s.script}-${'x'.repeat(60)}.txt`,
    };
  });
  return {
    agent: 'codex',
    version: '0.169.0',
    agent_bin: '/usr/local/lib/node_modules/@openai/codex/bin/codex.js',
    started_at: '2026-11-26T12:00:00.000Z',
    ended_at: '2026-11-26T12:02:00.000Z',
    wall_ms: 120_000,
    passed: false,
    whole: true,
    verified_by: 'doctor',
    scenarios,
    recorded_in: '/home/someone/.local/share/rec/rec.db',
    record_error: null,
    ...o,
  };
}

describe("rec doctor's report", () => {
  it.each([80, 200, Number.POSITIVE_INFINITY])('keeps every line within 80 columns (terminal width %s), long paths on lines of their own', (width) => {
    const text = doctorReport(result(), width);
    for (const line of text.trimEnd().split('\n')) {
      if (!line.trim().startsWith('/')) expect(stringWidth(line), line).toBeLessThanOrEqual(DOCTOR_WIDTH);
    }
    // Every expected row of the core scenarios is shown whole, not cut.
    expect(text).not.toContain('…');
    expect(text).toMatch(/^reject \(Esc\) +prompt +\(none\) +FAIL$/m);
    expect(text).toMatch(/^ +screen: *$|^ +screen: \/home/m);
    expect(text.replace(/\s+/g, ' ')).toContain('8 of 9 scenarios passed first time in 2m00s: codex 0.169.0 is not verified');
    expect(text.replace(/\s+/g, ' ')).toContain('; failed again when run again');
  });

  it('says a version that passed is verified from now on', () => {
    const passed = result();
    const all = { ...passed, passed: true, scenarios: passed.scenarios.map((s) => ({ ...s, seen: s.expected, pass: true, problem: null, capture: null })) };
    expect(doctorReport(all, 80).replace(/\s+/g, ' ')).toContain('9 of 9 scenarios passed first time in 2m00s: rec counts codex 0.169.0 as verified from now on');
  });

  it('says a run of one chosen scenario verifies nothing and was not recorded', () => {
    const one = result().scenarios[0]!;
    const chosen = { ...result(), passed: true, whole: false, verified_by: null, recorded_in: null, scenarios: [one] };
    expect(doctorReport(chosen, 80).replace(/\s+/g, ' ')).toContain(
      '1 of 1 scenarios passed first time in 2m00s: a run of chosen scenarios verifies nothing and is not recorded; `rec doctor codex` runs them all.',
    );
  });

  it('tells a flaky scenario (failed, then passed once more) from a failing one, and counts neither as passed', () => {
    const r = result();
    const flaky = { ...r, scenarios: r.scenarios.map((s, i) => (i === 2 ? { ...s, flaky: true } : s)) };
    const text = doctorReport(flaky, 80);
    expect(text).toMatch(/^reject \(Esc\) +prompt +\(none\) +FLAKY$/m);
    expect(text.replace(/\s+/g, ' ')).toContain('; passed when run again');
    expect(text.replace(/\s+/g, ' ')).toContain('8 of 9 scenarios passed first time (1 flaky: failed, then passed once more) in 2m00s: codex 0.169.0 is not verified');
  });
});

describe("rec doctor's runs of a scenario", () => {
  const scenario = CODEX_CONFORMANCE[0]!;
  const recorded = (callId: string) =>
    scenario.expected.map((want) => ({ call_id: callId, related_call_id: null, partial_output: null, reason: null, reason_source: 'none', scope: null, trigger: null, option_label: null, ...want }) as never);
  /** A kit whose one scenario gives these runs in turn (the agent itself is proved in the e2e doctor suites). */
  function kit(runs: Array<'pass' | 'fail'>): { kit: DoctorKit; attempts: () => number } {
    let attempts = 0;
    return {
      attempts: () => attempts,
      kit: {
        scenarios: [scenario],
        script: (name) => (name === scenario.script ? { name, description: '', run: async () => {} } : undefined),
        run: async (o) => {
          // As rec would, with REC_DEBUG_LOG set: one line per attempt.
          if (o.debugLog) writeFileSync(o.debugLog, `key esc: attempt ${attempts + 1}\n`);
          const outcome = runs[attempts++] ?? 'fail';
          return { rows: outcome === 'pass' ? recorded('call_1') : [], issuedCallIds: ['call_1'], modelTurns: 1, screen: 'the last screen', error: null };
        },
      },
    };
  }
  const plan = (k: DoctorKit, whole = true) => ({ agent: 'codex', kit: k, scenarios: k.scenarios, whole, binary: { path: '/opt/codex/bin/codex.js', packageVersion: '0.169.0' }, version: '0.169.0' });

  it.each([
    [['pass'], 1, { pass: true }],
    [['fail', 'pass'], 2, { pass: false, flaky: true }],
    [['fail', 'fail'], 2, { pass: false, flaky: false }],
  ] as const)('runs %j: %i attempt(s), kept as %j, and the version is verified only when it passed first time', async (runs, attempts, kept) => {
    const root = scratch();
    const k = kit([...runs]);
    const dbPath = join(root, 'rec.db');
    const result = await checkScenarios(plan(k.kit), dbPath, { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: root } as never, root);
    if (typeof result === 'string') throw new Error(result);
    expect(k.attempts()).toBe(attempts);
    expect(result.scenarios[0]).toMatchObject(kept);
    expect(result.passed).toBe(kept.pass);
    // A failure's capture holds the last screen and rec's debug log of the first attempt.
    const capture = result.scenarios[0]!.capture;
    if (kept.pass) expect(capture).toBeNull();
    else expect(readFileSync(capture!, 'utf8')).toBe("the last screen\n\n--- rec's debug log of this run ---\nkey esc: attempt 1\n\n");
    const opened = openSidecar(dbPath, { mustExist: true });
    if (!opened.ok) throw new Error(opened.error);
    try {
      expect(opened.db.doctorVerifiedVersions('codex')).toEqual(kept.pass ? ['0.169.0'] : []);
    } finally {
      opened.db.close();
    }
  });
});

describe("rec doctor's run of one chosen scenario (--scenario)", () => {
  it('runs it, reports it, and neither records it nor verifies the version, even when it passed', async () => {
    const root = scratch();
    const scenario = CODEX_CONFORMANCE[0]!;
    const rows = scenario.expected.map((want) => ({ call_id: 'call_1', related_call_id: null, partial_output: null, reason: null, reason_source: 'none', scope: null, trigger: null, option_label: null, ...want }) as never);
    const kit: DoctorKit = {
      scenarios: [scenario],
      script: (name) => ({ name, description: '', run: async () => {} }),
      run: async () => ({ rows, issuedCallIds: ['call_1'], modelTurns: 1, screen: '', error: null }),
    };
    const dbPath = join(root, 'rec.db');
    const plan = { agent: 'codex', kit, scenarios: [scenario], whole: false, binary: { path: '/opt/codex/bin/codex.js', packageVersion: '0.169.0' }, version: '0.169.0' };
    const result = await checkScenarios(plan, dbPath, { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: root } as never, root);
    if (typeof result === 'string') throw new Error(result);
    expect(result).toMatchObject({ passed: true, whole: false, verified_by: null, recorded_in: null, record_error: null });
    expect(result.scenarios.map((s) => s.name)).toEqual([scenario.name]);
    // Nothing was written: no database, so no doctor_runs row and no verified version.
    expect(existsSync(dbPath)).toBe(false);
  });
});

describe('the conformance check', () => {
  const approve = CODEX_CONFORMANCE[0]!;
  const row = (o: Record<string, unknown>) => ({ call_id: 'call_1', related_call_id: null, partial_output: null, reason: null, scope: null, trigger: null, option_label: null, ...o }) as never;

  it('names the first field that differs', () => {
    const seen = [row({ type: 'prompt', kind: 'command' }), row({ type: 'approval', kind: 'command', trigger: 'enter', option_label: 'Yes, proceed (y)', scope: 'once' })];
    expect(checkRows(approve.expected, seen, ['call_1']).problem).toBe('row 2 (approval): trigger is "enter", expected "letter"');
  });

  it('refuses a call id the mock model never asked for', () => {
    const seen = [row({ type: 'prompt', kind: 'command', call_id: 'call_x' }), row({ type: 'approval', kind: 'command', trigger: 'letter', option_label: 'Yes, proceed (y)', scope: 'once' })];
    expect(checkRows(approve.expected, seen, ['call_1']).problem).toMatch(/^row 1 \(prompt\): call_id "call_x" is none of the calls/);
  });
});

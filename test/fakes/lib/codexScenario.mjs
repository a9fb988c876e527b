// @ts-check
// What fake-codex's "model" does in each turn. Built-ins mirror the research scenarios behind
// /work/shared/agents/codex/samples (mock-llm.mjs SCN=shell, parallel, patch, sleep, text).
import { z } from 'zod';

export const CodexCall = z.object({
  kind: z.enum(['exec', 'patch']).default('exec'),
  /** exec: the command; run with /bin/bash -c in the cwd when approved. */
  cmd: z.string().optional(),
  /** exec: the escalation justification, shown as `Reason:`. */
  justification: z.string().optional(),
  /** exec: the prefix offered by option 2 (default: the command up to its first `;`). */
  prefix: z.string().optional(),
  /** patch: the file to add and its content. */
  path: z.string().optional(),
  content: z.string().optional(),
  /** A fixed call_id (default: a random `call_<16 hex>`), so tests can assert on it. */
  callId: z.string().optional(),
});

export const CodexTurn = z.object({
  /** Function calls proposed in one response (a batch is prompted one call at a time). */
  calls: z.array(CodexCall).optional(),
  /** A streamed answer: `words` words (or `text`), one every `intervalMs`. */
  stream: z.object({ words: z.number().int().positive().default(60), intervalMs: z.number().int().positive().default(150), text: z.string().optional() }).optional(),
  /** A plain answer. */
  say: z.string().optional(),
  /** The answer after the calls' outputs (default: MOCK FINAL summary). */
  final: z.string().optional(),
});

export const CodexScenario = z.object({
  /** Submitted at start as if typed (a positional argument overrides it); absent: wait for input. */
  prompt: z.string().optional(),
  /** turns[i] answers the i-th user message; later messages get `followUp`. */
  turns: z.array(CodexTurn).default([]),
  followUp: z.string().default('MOCK: ok, noted.'),
  model: z.string().default('mock-model'),
  /** Exit code after /quit or double Ctrl+C. */
  exitCode: z.number().int().min(0).max(255).default(0),
});

const shellCall = { cmd: 'echo hello > {cwd}/approved.txt && cat {cwd}/approved.txt', justification: 'Write approved.txt in the workspace?' };

export const codexBuiltins = {
  idle: { turns: [] },
  shell: { prompt: 'SCN=shell please write the file', turns: [{ calls: [shellCall] }] },
  sleep: { prompt: 'SCN=sleep long command', turns: [{ calls: [{ cmd: 'sleep 60; echo slept', justification: 'Sleep 60 seconds?' }] }] },
  parallel: {
    prompt: 'SCN=parallel three calls',
    turns: [{ calls: [
      { cmd: 'echo one > {cwd}/p1.txt', justification: 'Parallel call one' },
      { cmd: 'echo two > {cwd}/p2.txt', justification: 'Parallel call two' },
      { cmd: 'echo three > {cwd}/p3.txt', justification: 'Parallel call three' },
    ] }],
  },
  patch: { prompt: 'SCN=patch add a file', turns: [{ calls: [{ kind: 'patch', path: '{cwd}/patched.txt', content: 'line one\nline two\n' }] }] },
  text: { prompt: 'SCN=text stream slowly', turns: [{ stream: { words: 60, intervalMs: 150 } }] },
  long: {
    prompt: 'SCN=long wrapped command',
    turns: [{ calls: [{
      cmd: 'printf "%s\\n" alpha-bravo-charlie-delta-echo-foxtrot golf-hotel-india-juliet-kilo-lima mike-november-oscar-papa > {cwd}/long.txt && wc -l {cwd}/long.txt',
      justification: 'Write a long file in the workspace?',
    }] }],
  },
};

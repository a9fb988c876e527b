// @ts-check
// Scenario schema shared by fake-gemini and fake-claude (both Ink TUIs with numbered dialogs).
import { z } from 'zod';

export const InkCall = z.object({
  /** shell: a command; write: create `path` with `content`; edit: replace `oldString` by `newString` in `path`. */
  tool: z.enum(['shell', 'write', 'edit']).default('shell'),
  command: z.string().optional(),
  description: z.string().optional(),
  path: z.string().optional(),
  content: z.string().optional(),
  oldString: z.string().optional(),
  newString: z.string().optional(),
  /** A fixed tool call id (default: the agent's own id shape). */
  id: z.string().optional(),
});

export const InkTurn = z.object({
  /** Text the model says before its calls (Claude shows it as `● …`). */
  preface: z.string().optional(),
  calls: z.array(InkCall).optional(),
  stream: z.object({ words: z.number().int().positive().default(60), intervalMs: z.number().int().positive().default(150) }).optional(),
  say: z.string().optional(),
});

export const InkScenario = z.object({
  prompt: z.string().optional(),
  turns: z.array(InkTurn).default([]),
  followUp: z.string().default('MOCK: ok, noted.'),
  exitCode: z.number().int().min(0).max(255).default(0),
});

export const inkBuiltins = (tag) => ({
  idle: { turns: [] },
  shell: { prompt: `${tag('shell')} please do the thing`, turns: [{ preface: 'I will run a command.', calls: [{ tool: 'shell', command: 'touch shell_marker.txt', description: 'Create a marker file' }] }] },
  sleep: { prompt: `${tag('long')} please do the thing`, turns: [{ preface: 'Running a long command.', calls: [{ tool: 'shell', command: 'sleep 30; echo finished', description: 'Wait 30 seconds' }] }] },
  write: { prompt: `${tag('write')} please do the thing`, turns: [{ calls: [{ tool: 'write', path: '{cwd}/new_file.txt', content: 'hello\nworld\n' }] }] },
  edit: { prompt: `${tag('edit')} please do the thing`, turns: [{ calls: [{ tool: 'edit', path: '{cwd}/edit_me.txt', oldString: 'old line', newString: 'new line' }] }] },
  parallel: {
    prompt: `${tag('parallel')} please do the thing`,
    turns: [{ calls: [{ tool: 'write', path: '{cwd}/a.txt', content: 'alpha\n' }, { tool: 'write', path: '{cwd}/b.txt', content: 'beta\n' }] }],
  },
  text: { prompt: `${tag('slowtext')} stream slowly`, turns: [{ stream: { words: 60, intervalMs: 150 } }] },
});

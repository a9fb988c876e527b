// `rec rules --write`: prints the change to the agent's personal rule file, then makes it.
import type { OutputGuard } from '../merge/outputGuard.js';
import type { AgentRules } from '../rules/ruleTypes.js';
import { commitWrite, lineDiff, planWrite } from '../rules/writeRules.js';
import type { CommandIO } from './commandIO.js';
import { escapeControlsKeepLines } from './terminalText.js';

export async function writeSuggestedRules(a: AgentRules | null, io: CommandIO, out: OutputGuard): Promise<number> {
  if (a === null || (a.allow.length === 0 && a.deny_or_ask.length === 0)) {
    io.stderr.write('rec rules: no rule to write\n');
    return 0;
  }
  const plan = planWrite(a, { env: io.env, cwd: io.cwd });
  if (!plan.ok) {
    io.stderr.write(`rec rules: ${plan.file}: ${plan.error}\n`);
    return 1;
  }
  if (plan.after === plan.before) {
    io.stderr.write(`rec rules: ${plan.file} already holds every suggested rule\n`);
    return 0;
  }
  await out.write(escapeControlsKeepLines(lineDiff(plan.file, plan.before, plan.after)));
  try {
    commitWrite(plan);
  } catch (err) {
    io.stderr.write(`rec rules: ${plan.file}: could not write: ${(err as Error).message}\n`);
    return 1;
  }
  io.stderr.write(`rec rules: wrote ${plan.file}\n`);
  return 0;
}

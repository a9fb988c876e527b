// `rec rules`: permission rules suggested from what the user approved and refused, per agent, in
// each agent's own format, read from the same sessions `rec merge` reads.
import { exitStatus } from '../merge/mergeRun.js';
import { OutputGuard } from '../merge/outputGuard.js';
import { checkExistingRules } from '../rules/existingRules.js';
import { ruleFileText } from '../rules/ruleFile.js';
import { RulesAggregator } from '../rules/suggestRules.js';
import type { CommandIO } from './commandIO.js';
import { parseOrReport } from './commandKit.js';
import { RULES_SPEC } from './commandSpec.js';
import { toRulesArgs, type RulesArgs } from './rulesArgs.js';
import { formatRulesReport } from './rulesTable.js';
import { writeSuggestedRules } from './rulesWrite.js';
import { runSelectionCommand } from './selectionRun.js';
import { outputWidth } from './terminalText.js';

export async function rulesCommand(args: string[], io: CommandIO): Promise<number> {
  let parsed!: RulesArgs;
  const status = parseOrReport(RULES_SPEC, args, io, (p) => (parsed = toRulesArgs(p)));
  if (typeof status === 'number') return status;
  const agg = new RulesAggregator(parsed.min);
  const out = new OutputGuard(io.stdout, io.stderr, 'rules');
  const outcome = await runSelectionCommand('rules', parsed, io, 'rules', (r) => {
    if (r.decisions) agg.add(r.decisions);
  }, { signal: out.signal, whereAll: 'rec rules --all prints every one' });
  if (!outcome.ok) return outcome.status;
  const report = agg.report();
  checkExistingRules(report, (agent) => agg.occurrences(agent), { env: io.env, cwd: io.cwd });
  if (parsed.write) {
    const agent = report.agents.find((a) => a.agent === parsed.target);
    const written = await writeSuggestedRules(agent ?? null, io, out);
    if (written !== 0) return written;
  } else if (!out.closed) {
    if (parsed.json) await out.write(`${JSON.stringify(report, null, 2)}\n`);
    else if (parsed.format !== null) await out.write(ruleFileText(report.agents.find((a) => a.agent === parsed.format) ?? emptyAgent(parsed.format)));
    else await out.write(formatRulesReport(report, outputWidth(io.stdout)));
  }
  if (out.failure !== null) return 1;
  if (out.closed) return 0;
  return exitStatus(outcome.summary);
}

function emptyAgent(agent: string): Parameters<typeof ruleFileText>[0] {
  return { agent, project: null, sessions: 0, sessions_without_sidecar: 0, target: '', allow: [], deny_or_ask: [], withheld: [], existing: [], rule_files: [], notes: [] };
}

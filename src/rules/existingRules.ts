// The agent's own rule files, read where rec can read them, and checked against what the user did:
// an allow rule that covers a refused command conflicts with it, a deny rule that covers an
// approved one too, and a rule no call of the sessions matched was never needed there. Only
// command rules are checked; a file that cannot be read is named with the reason.
import type { ExistingRule } from '../agents/common/ruleFormat.js';
import { rulesOf } from './agentFormats.js';
import type { Occurrence } from './groupCalls.js';
import { covers, subjectText } from './ruleMatch.js';
import type { AgentRules, RulesReport } from './ruleTypes.js';

interface Where {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

function findings(a: AgentRules, rules: readonly ExistingRule[], calls: readonly Occurrence[]): void {
  for (const r of rules) {
    const hit = calls.filter((o) => covers(r.match, o.subject, a.agent));
    const refused = hit.find((o) => o.outcome === 'refused');
    const approved = hit.find((o) => o.outcome === 'approved');
    if (r.decision === 'allow' && refused !== undefined) {
      a.existing.push({ agent: a.agent, file: r.file, rule: r.text, decision: r.decision, finding: 'conflict', detail: `allows \`${subjectText(refused.subject)}\`, which was refused` });
    } else if (r.decision === 'deny' && approved !== undefined) {
      a.existing.push({ agent: a.agent, file: r.file, rule: r.text, decision: r.decision, finding: 'conflict', detail: `denies \`${subjectText(approved.subject)}\`, which was approved` });
    } else if (hit.length === 0) {
      a.existing.push({ agent: a.agent, file: r.file, rule: r.text, decision: r.decision, finding: 'never_needed', detail: 'no call of these sessions matched it' });
    }
  }
}

/** Fills each agent's `existing` and `rule_files` from the rule files found. */
export function checkExistingRules(report: RulesReport, calls: (agent: string) => Occurrence[], where: Where): void {
  for (const a of report.agents) {
    const rules: ExistingRule[] = [];
    for (const { file, read } of rulesOf(a.agent)?.ruleFiles(a.project ?? where.cwd, where.env) ?? []) {
      try {
        const found = read(file);
        rules.push(...found);
        if (found.length > 0) a.rule_files.push({ file, error: null });
      } catch (err) {
        a.rule_files.push({ file, error: err instanceof Error ? err.message.split('\n')[0]! : String(err) });
      }
    }
    findings(a, rules, calls(a.agent));
  }
}

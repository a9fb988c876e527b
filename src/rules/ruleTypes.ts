// The report `rec rules` prints (and `--json` holds whole): per agent, the rules suggested, the
// groups held back with the reason, and what the agent's existing rules say about the calls.
import type { RuleDecision, RuleMatch } from '../agents/common/ruleFormat.js';

export type { RuleDecision, RuleMatch } from '../agents/common/ruleFormat.js';
export type RuleKind = 'command' | 'edit' | 'fetch' | 'mcp';

export interface Evidence {
  /** Prompts the rule would have answered: the user's approvals (allow) or refusals (deny, ask). */
  prompts_saved: number;
  approvals: number;
  refusals: number;
  /** Calls it covers that ran with no prompt recorded (a rule, the config, or no rec run). */
  ran_unprompted: number;
  sessions: number;
  first_seen: string | null;
  last_seen: string | null;
  /** Each distinct command, path, host or tool covered, with how often. */
  covers: Array<{ text: string; count: number }>;
  /** The reasons given with the refusals, as written. */
  reasons: string[];
}

export interface SuggestedRule {
  agent: string;
  decision: RuleDecision;
  match: RuleMatch;
  /** The agent's tool names seen in the group. */
  tools: string[];
  /** The widest call the rule allows (or stops), in plain words. */
  widest: string;
  /** The rule in the agent's own format, paste-ready; null when the agent has no way to say it. */
  entry: string | null;
  /** Why entry is null. */
  no_entry_reason: string | null;
  evidence: Evidence;
}

export interface Withheld {
  agent: string;
  kind: RuleKind;
  /** The command, path, host or tool the group was about. */
  subject: string;
  approvals: number;
  refusals: number;
  reason: string;
}

/** An existing rule of the agent, checked against what the user did. */
export interface ExistingFinding {
  agent: string;
  file: string;
  rule: string;
  decision: RuleDecision;
  finding: 'never_needed' | 'conflict';
  detail: string;
}

export interface AgentRules {
  agent: string;
  /** The folder the sessions ran in, when they all ran in one: the project of the rules. */
  project: string | null;
  sessions: number;
  /** Sessions no rec run saw: approvals there cannot be told from calls that ran unasked. */
  sessions_without_sidecar: number;
  /** Where the suggested rules go, and how the agent reads them. */
  target: string;
  allow: SuggestedRule[];
  deny_or_ask: SuggestedRule[];
  withheld: Withheld[];
  existing: ExistingFinding[];
  /** Rule files read for `existing`, and those that could not be read, with why. */
  rule_files: Array<{ file: string; error: string | null }>;
  notes: string[];
}

export interface RulesReport {
  min: number;
  repeated_refusals: number;
  agents: AgentRules[];
}

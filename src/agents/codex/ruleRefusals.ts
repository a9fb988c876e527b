// A call a rule forbade. Codex refuses such a call before it runs, draws nothing, and writes the
// output `Rejected("`<command>` rejected: policy forbids commands starting with `<prefix>`")`
// (docs/codex-auto-review.md §6a). A hook of the user's could give those same words as its own
// message, so the words alone do not name the refuser. A `forbidden` prefix_rule of that very prefix
// in the rules Codex reads does: Codex asks a PermissionRequest hook only about a call that needs
// approval, and a forbidden one never does.
import { join } from 'node:path';
import type { SessionFact } from '../common/agentProfile.js';
import { filesIn, textReader } from '../common/ruleFormat.js';
import { rulePrefix } from './approvalRules.js';
import { codexPermissionRules, codexRules } from './rules.js';
import type { CodexStrings } from './strings/index.js';

/** The prefix a rule refusal's message names, or undefined when the message is not Codex's words for one. */
export function forbiddenPrefixOf(message: string, strings: CodexStrings): string | undefined {
  return strings.harnessRefusal?.ruleForbids?.exec(message)?.[1];
}

/**
 * The last `forbidden` prefix_rule for `prefix` in the rules Codex reads for a session in `cwd`:
 * the user's ($CODEX_HOME/rules/*.rules) and the project's (`.codex/rules/*.rules`).
 */
export function forbiddingRule(env: NodeJS.ProcessEnv, cwd: string, prefix: string, strings: CodexStrings): string | undefined {
  // The user's files are the ones `rec rules` reads; the project's are read the same way.
  const read = textReader(codexRules);
  const project = filesIn(join(cwd, '.codex', 'rules'), '.rules').map((file) => ({ file, read }));
  return [...codexPermissionRules.ruleFiles(cwd, env), ...project]
    .flatMap((source) => source.read(source.file))
    .filter((r) => r.decision === 'deny' && r.match.kind === 'command' && rulePrefix(r.match.words, strings) === prefix)
    .at(-1)?.text;
}

/** The rule's refusal of a call, as the recorder applies it. */
export function ruleRefusal(callId: string, message: string, rule: string): SessionFact {
  return { type: 'refused', callId, decidedBy: 'rule', trigger: 'rule', native: { permission_rule: rule, message }, evidence: ['session_file'], source: 'session_file' };
}

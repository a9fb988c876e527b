// The TOML rule files rec reads back (smol-toml underneath), property-tested: Gemini's policy files
// in every spelling TOML allows for what Gemini writes (basic, literal and multi-line strings, a
// prefix as a string or a list, comments after any line, keys in any order, other keys and tables
// beside the rules) read back as the same rules; and Codex's MCP tool approvals in config.toml, in
// a real CODEX_HOME.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { mcpApprovalRule } from '../../../src/agents/codex/mcpRules.js';
import { geminiRules } from '../../../src/agents/gemini/rules.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-toml-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A command word as people write them in rules: letters, digits and a few marks, never a quote or a space. */
const word = fc.stringMatching(/^[a-z0-9][a-z0-9._/:=+-]{0,11}$/);
const words = fc.array(word, { minLength: 1, maxLength: 3 });

/** One string in one of TOML's spellings (none of the words needs escaping). */
function spelled(s: string, style: number): string {
  return [`"${s}"`, `'${s}'`, `"""${s}"""`, `'''${s}'''`][style % 4]!;
}

interface Rule {
  readonly prefixes: string[][];
  readonly decision: 'allow' | 'deny';
  readonly asList: boolean;
  readonly style: number;
  readonly comment: boolean;
  readonly priorityFirst: boolean;
}

const rule: fc.Arbitrary<Rule> = fc.record({
  prefixes: fc.array(words, { minLength: 1, maxLength: 3 }),
  decision: fc.constantFrom('allow' as const, 'deny' as const),
  asList: fc.boolean(),
  style: fc.nat(3),
  comment: fc.boolean(),
  priorityFirst: fc.boolean(),
});

function ruleText(r: Rule): string {
  const note = r.comment ? '  # mine' : '';
  const prefixes = r.asList || r.prefixes.length > 1 ? r.prefixes : r.prefixes.slice(0, 1);
  const prefix = r.asList || prefixes.length > 1 ? `[\n  ${prefixes.map((p) => spelled(p.join(' '), r.style)).join(`,${note}\n  `)},\n]` : spelled(prefixes[0]!.join(' '), r.style);
  const lines = [`toolName = ${spelled('run_shell_command', r.style + 1)}${note}`, `commandPrefix = ${prefix}`, `decision = ${spelled(r.decision, r.style + 2)}${note}`];
  const priority = 'priority = 500';
  return ['[[rule]]' + note, ...(r.priorityFirst ? [priority, ...lines] : [...lines, priority])].join('\n');
}

describe("Gemini's policy TOML, any spelling", () => {
  it('reads back every rule a file holds, whatever its strings, comments and key order', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 4 }), fc.boolean(), (rules, header) => {
        const text = [...(header ? ['# policies', '[meta]', 'name = "mine"', ''] : []), ...rules.map(ruleText)].join('\n\n') + '\n';
        const read = geminiRules('rules.toml', text).map((r) => [r.match.kind === 'command' ? r.match.words : null, r.decision]);
        const expected = rules.flatMap((r) => (r.asList || r.prefixes.length > 1 ? r.prefixes : r.prefixes.slice(0, 1)).map((p) => [p.flatMap((w) => w.split(' ')), r.decision]));
        expect(read).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe("Codex's MCP always-allow rules in config.toml, any spelling", () => {
  const server = fc.stringMatching(/^[a-z][a-z0-9_-]{0,9}$/);
  const tool = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
  /** The same setting as a table, with quoted keys and a comment, as a dotted key, or as an inline table. */
  const entry = (t: { server: string; tool: string; mode: string; form: number }): string =>
    [
      `[mcp_servers.${t.server}.tools.${t.tool}]\napproval_mode = ${spelled(t.mode, t.form)}\n`,
      `[mcp_servers."${t.server}".tools."${t.tool}"]  # set by codex\napproval_mode = ${spelled(t.mode, t.form + 1)} # always\n`,
      `[mcp_servers.${t.server}]\ntools.${t.tool}.approval_mode = ${spelled(t.mode, t.form + 2)}\n`,
      `[mcp_servers.${t.server}.tools]\n${t.tool} = { approval_mode = ${spelled(t.mode, t.form + 3)} }\n`,
    ][t.form % 4]!;

  it('reads back the rule of each tool approved as "approve", and none of another', () => {
    let n = 0;
    const tools = fc.uniqueArray(fc.record({ server, tool, approve: fc.boolean(), form: fc.nat(3) }), { minLength: 1, maxLength: 4, selector: (t) => t.server });
    fc.assert(
      fc.property(tools, (list) => {
        const home = join(dir, `codex-${n++}`);
        mkdirSync(home, { recursive: true });
        const text = list.map((t) => entry({ ...t, mode: t.approve ? 'approve' : 'prompt' })).join('\n');
        writeFileSync(join(home, 'config.toml'), `model = "x"\n\n${text}`);
        for (const t of list) {
          const want = t.approve ? `[mcp_servers.${t.server}.tools.${t.tool}]\napproval_mode = "approve"` : undefined;
          expect(mcpApprovalRule({ CODEX_HOME: home }, t.server, t.tool)).toBe(want);
        }
      }),
      { numRuns: 60 },
    );
  });
});

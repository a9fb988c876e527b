// A rule's match made from the calls of one group, whether it covers a call, and the widest call
// it would allow, in plain words. Codex and Gemini CLI match a command by prefix whatever is
// written; Claude Code matches `Bash(cmd)` exactly and `Bash(cmd *)` by prefix.
import { prefixOnly } from './agentFormats.js';
import type { RuleMatch } from './ruleTypes.js';
import type { Subject } from './subjects.js';

function commonPrefix(lists: ReadonlyArray<readonly string[]>): string[] {
  const first = lists[0] ?? [];
  let n = first.length;
  for (const l of lists) {
    let i = 0;
    while (i < n && i < l.length && l[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n);
}

/** The words as a rule compares them: a piece rec could not read is cut at spaces. */
export function wordsOf(s: Extract<Subject, { kind: 'command' }>): readonly string[] {
  return s.plain ? s.words : s.text.split(/\s+/);
}

/** The match for these subjects (one group's); null when no rule short of the whole tool covers them. */
export function matchOf(subjects: readonly Subject[]): RuleMatch | null {
  const first = subjects[0];
  if (first === undefined) return null;
  switch (first.kind) {
    case 'command': {
      const lists = subjects.map((s) => wordsOf(s as typeof first));
      const words = commonPrefix(lists);
      if (words.length === 0) return null;
      return { kind: 'command', words, exact: lists.every((l) => l.length === words.length) };
    }
    case 'edit': {
      const paths = [...new Set(subjects.map((s) => (s as typeof first).path))];
      if (paths.length === 1) return { kind: 'edit', dir: null, file: paths[0]!, in_project: first.inProject };
      const dir = commonPrefix(paths.map((p) => p.split('/').slice(0, -1))).join('/');
      if (dir === '' || dir === '/') return null;
      return { kind: 'edit', dir, file: null, in_project: first.inProject };
    }
    case 'fetch':
      return { kind: 'fetch', host: first.host };
    case 'mcp':
      return { kind: 'mcp', server: first.server, tool: first.tool };
  }
}

export function covers(m: RuleMatch, s: Subject, agent: string): boolean {
  if (m.kind === 'command' && s.kind === 'command') {
    const w = wordsOf(s);
    if (w.length < m.words.length) return false;
    if (m.exact && !prefixOnly(agent) && w.length !== m.words.length) return false;
    return m.words.every((x, i) => w[i] === x);
  }
  if (m.kind === 'edit' && s.kind === 'edit') {
    if (m.in_project !== s.inProject) return false;
    return m.file !== null ? s.path === m.file : s.path.startsWith(`${m.dir}/`);
  }
  if (m.kind === 'fetch' && s.kind === 'fetch') return s.host === m.host;
  if (m.kind === 'mcp' && s.kind === 'mcp') return s.server === m.server && s.tool === m.tool;
  return false;
}

/** One line naming what the group is about. */
export function subjectText(s: Subject): string {
  switch (s.kind) {
    case 'command':
      return s.text;
    case 'edit':
      return s.path;
    case 'fetch':
      return s.host;
    case 'mcp':
      return `${s.server} ${s.tool}`;
  }
}

/** The widest call the match allows, in plain words. */
export function widestText(m: RuleMatch, agent: string): string {
  switch (m.kind) {
    case 'command': {
      const cmd = m.words.join(' ');
      return m.exact && !prefixOnly(agent) ? `exactly \`${cmd}\`` : `\`${cmd}\` followed by any arguments`;
    }
    case 'edit': {
      const where = m.in_project ? 'the project' : 'the disk';
      return m.file !== null ? `edits of ${m.file} only` : `edits of any file under ${m.dir}/ in ${where}`;
    }
    case 'fetch':
      return `any fetch from ${m.host} (not its subdomains)`;
    case 'mcp':
      return `any call of ${m.server}'s tool ${m.tool}, with any arguments`;
  }
}

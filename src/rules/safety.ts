// What rec never suggests allowing, whatever the user approved: a rule that could run code of the
// model's choosing, delete recursively, force a push, or run as another user. Each check says why
// in plain words; the reason is shown beside the command that was not turned into a rule.
import { basename } from 'node:path';

/** Programs that run code given as an argument or on stdin. */
const INTERPRETERS = new Set([
  'python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh',
  'perl', 'ruby', 'php', 'lua', 'Rscript', 'pwsh', 'powershell', 'osascript', 'awk', 'gawk', 'jshell', 'irb', 'tclsh',
]);
/** Flags that hand an interpreter its code inline. */
const CODE_FLAGS = new Set(['-c', '-e', '-E', '--eval', '-p', '--print', '-r', '-lc', '-ic', '--command', '-Command']);
/** Programs that run the command given in their arguments, as someone else or in another way. */
const RUNNERS = new Set(['sudo', 'doas', 'su', 'pkexec', 'env', 'xargs', 'exec', 'eval', 'nohup', 'nice', 'timeout', 'time', 'command', 'builtin', 'watch', 'ssh', 'find', 'parallel', 'npx', 'bunx', 'pnpx']);

function program(words: readonly string[]): string {
  return basename(words[0] ?? '');
}

function isRecursiveFlag(w: string): boolean {
  return w === '--recursive' || /^-[a-zA-Z]*[rR]/.test(w);
}

function isForcePush(words: readonly string[]): boolean {
  return words.slice(2).some((w) => w === '--force' || w === '-f' || w.startsWith('--force-') || (/^-[a-zA-Z]+$/.test(w) && w.includes('f')) || w.startsWith('+'));
}

/** Why this exact command must never be allowed by a rule; null when nothing forbids it. */
export function commandDanger(words: readonly string[]): string | null {
  const p = program(words);
  if (p === '') return 'an empty command';
  if (RUNNERS.has(p)) return `${p} runs another command given in its arguments`;
  if (INTERPRETERS.has(p)) {
    if (words.length === 1) return `${p} with no script reads code from its input`;
    if (words.slice(1).some((w) => CODE_FLAGS.has(w))) return `${p} with inline code runs whatever code it is given`;
  }
  if (p === 'rm' && words.some(isRecursiveFlag)) return 'rm -r deletes whole folders';
  if (p === 'git' && words[1] === 'push' && isForcePush(words)) return 'git push --force rewrites the remote history';
  return null;
}

/**
 * Why a rule that allows `prefix` followed by any words could allow something dangerous; null when
 * nothing can be added to it that commandDanger forbids.
 */
export function prefixDanger(prefix: readonly string[]): string | null {
  const exact = commandDanger(prefix);
  if (exact !== null) return exact;
  const p = program(prefix);
  if (p === 'rm') return 'rm followed by any words could add -r';
  if (p === 'git' && prefix[1] === 'push') return 'git push followed by any words could add --force';
  if (INTERPRETERS.has(p) && prefix.length === 1) return `${p} followed by any words could run inline code`;
  return null;
}

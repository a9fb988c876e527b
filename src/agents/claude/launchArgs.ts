// What the user's Claude Code arguments already say about the session and the settings, read
// without changing them: whether a session id was chosen, a session is resumed or continued,
// settings were passed with --settings, or the run is a subcommand or an informational flag
// that takes none of these options.

/** Subcommands of `claude` (2.1.x) that take no session or settings options: their args stay untouched. */
const SUBCOMMANDS: ReadonlySet<string> = new Set(['mcp', 'plugin', 'config', 'doctor', 'update', 'install', 'migrate-installer', 'setup-token']);
/** Flags that print and exit. */
const INFO_FLAGS: ReadonlySet<string> = new Set(['-v', '--version', '-h', '--help']);

/** Where the user's --settings value is, to merge rec's hooks into it in place. */
export interface UserSettingsArg {
  /** Index of the token holding the value (`--settings=<v>` holds it in the flag's own token). */
  readonly index: number;
  readonly value: string;
  /** Whether the value is inline after `=` in the flag's token. */
  readonly inline: boolean;
}

export interface ClaudeArgsReading {
  /** The run starts no interactive or print session (a subcommand, --version, --help). */
  readonly noSession: boolean;
  /** The session id the user chose with --session-id. */
  readonly sessionId?: string;
  /** --resume/-r, --continue/-c or --fork-session: Claude picks the session; rec finds it through hooks. */
  readonly resumes: boolean;
  readonly settings?: UserSettingsArg;
}

/** Reads the options before `--` (after it everything is the user's prompt text). */
export function readClaudeArgs(args: readonly string[]): ClaudeArgsReading {
  if (args.length > 0 && SUBCOMMANDS.has(args[0]!)) return { noSession: true, resumes: false };
  let noSession = false;
  let sessionId: string | undefined;
  let resumes = false;
  let settings: UserSettingsArg | undefined;
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (token === '--') break;
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const flag = eq > 0 ? token.slice(0, eq) : token;
    const inlineValue = eq > 0 ? token.slice(eq + 1) : undefined;
    if (INFO_FLAGS.has(flag)) noSession = true;
    else if (flag === '--resume' || flag === '-r' || flag === '--continue' || flag === '-c' || flag === '--fork-session') resumes = true;
    else if (flag === '--session-id') {
      if (inlineValue !== undefined) sessionId = inlineValue;
      else if (i + 1 < args.length) sessionId = args[++i]!;
    } else if (flag === '--settings') {
      // Claude reads one --settings; with several, the last one counts (commander keeps the last value).
      if (inlineValue !== undefined) settings = { index: i, value: inlineValue, inline: true };
      else if (i + 1 < args.length) settings = { index: ++i, value: args[i]!, inline: false };
    }
  }
  return { noSession, resumes, ...(sessionId !== undefined ? { sessionId } : {}), ...(settings ? { settings } : {}) };
}

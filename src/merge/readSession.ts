// Reads one agent session file (or the sidecar's copy of its lines) into a NativeSession: picks
// the reader, splits lines, parses JSON, and turns every bad input into a diagnostic with file
// and line while the rest goes on.
import { readFile } from 'node:fs/promises';
import { AGENT_MODULES, AGENT_NAMES, agentModule, attributeRecord, type RecordAttribution } from '../agents/registry.js';
import type { ToolTable } from '../readers/action.js';
import type { MergeAgent } from '../readers/conversation.js';
import { splitJsonlFile, type JsonlLine } from '../readers/jsonlChunks.js';
import { isObject, SessionBuilder, type NativeSession, type SessionReader } from '../readers/nativeSession.js';

/** Each agent's reader (agents/<name>/…Reader.ts), loaded once. */
export type ReaderTable = Readonly<Record<MergeAgent, (file: string) => SessionReader>>;

let readers: Promise<ReaderTable> | undefined;
const toolTables = new Map<MergeAgent, ToolTable>();

/**
 * Loads every agent's reader and tool table (once per process): a file's agent may only be told by
 * its records. A session is read only after this, so its tools are known when it is joined.
 */
export function loadReaders(): Promise<ReaderTable> {
  readers ??= Promise.all(
    AGENT_NAMES.map(async (a) => {
      const [reader, tools] = await Promise.all([agentModule(a).loadReader(), agentModule(a).loadTools()]);
      toolTables.set(a, tools);
      return [a, reader] as const;
    }),
  ).then((rows) => Object.fromEntries(rows) as unknown as ReaderTable);
  return readers;
}

/** The agent's tool table; loaded with the readers, before any session of it could be read. */
export function toolsOf(agent: MergeAgent): ToolTable {
  const tools = toolTables.get(agent);
  if (!tools) throw new Error(`the tools of ${agent} are not loaded: read its sessions through loadReaders() first`);
  return tools;
}

/** Which agent wrote a file, from its path alone; null when the path does not say. */
export function agentFromPath(path: string): MergeAgent | null {
  const p = path.replace(/\\/g, '/');
  return AGENT_MODULES.find((m) => m.pathSaysAgent(p))?.name ?? null;
}

/** Which agent wrote a record, from its shape (agents/registry.ts attributeRecord). */
export function agentFromRecord(record: unknown): RecordAttribution {
  return isObject(record) ? attributeRecord(record) : null;
}

/**
 * Feeds lines into a reader, choosing the reader at the first record whose agent can be told when
 * `agent` is not given. Used for files and for agent_records rows alike.
 */
export class LineFeeder {
  private _reader: SessionReader | null = null;
  private readonly _early: Array<{ line: JsonlLine; record: unknown }> = [];
  /** Only its diagnostics are used: which agent it is made for does not matter. */
  private readonly _diags = new SessionBuilder(AGENT_NAMES[0]!, '');
  /** The agents that claimed a record equally while none decided (for the diagnostic of an undecided file). */
  private _ambiguous: readonly MergeAgent[] | null = null;
  private _lines = 0;
  /** Lines of at least `keepLinesFrom` characters, by line number (for rawLiterals), or null. */
  readonly keptLines: Map<number, string> | null;

  constructor(
    private readonly _file: string,
    private _agent: MergeAgent | null,
    private readonly _readers: ReaderTable,
    private readonly _keepLinesFrom: number | null = null,
  ) {
    if (_agent !== null) this._reader = _readers[_agent](_file);
    this.keptLines = _keepLinesFrom === null ? null : new Map();
  }

  get agent(): MergeAgent | null {
    return this._agent;
  }

  feed(line: JsonlLine): void {
    this._lines++;
    if (this.keptLines !== null && line.text.length >= this._keepLinesFrom!) this.keptLines.set(line.lineNo, line.text);
    const r = this._reader;
    if (r?.quickLine && line.terminated && r.quickLine(line.text, line.lineNo)) return;
    let record: unknown;
    try {
      record = JSON.parse(line.text);
    } catch (err) {
      const truncated = !line.terminated;
      this._diags.session.diagnostics.push({
        severity: truncated ? 'warning' : 'error',
        code: truncated ? 'truncated_line' : 'invalid_json',
        message: truncated
          ? `last line is cut short (${line.text.length} bytes, no newline): ${(err as Error).message}`
          : `not JSON: ${(err as Error).message}`,
        file: this._file,
        line: line.lineNo,
      });
      return;
    }
    if (this._reader === null) {
      const said = agentFromRecord(record);
      if (said === null || 'ambiguous' in said) {
        // Undecided yet (a first line that says nothing, or that two agents claim alike): keep the
        // lines until one decides.
        if (said !== null) this._ambiguous ??= said.ambiguous;
        this._early.push({ line, record });
        return;
      }
      const agent = said.agent;
      this._agent = agent;
      this._reader = this._readers[agent](this._file);
      for (const e of this._early.splice(0)) this._reader.add(e.record, e.line.lineNo, e.line.text);
    }
    this._reader.add(record, line.lineNo, line.text);
  }

  finish(): NativeSession | null {
    if (this._reader === null) return null;
    const s = this._reader.finish();
    s.diagnostics.unshift(...this._diags.session.diagnostics);
    return s;
  }

  /** The agents that claimed a record alike, when no record decided the file; else null. */
  get ambiguousAgents(): readonly MergeAgent[] | null {
    return this._reader === null ? this._ambiguous : null;
  }

  /** Diagnostics gathered before a reader could be chosen (for files no reader took). */
  get diagnostics(): NativeSession['diagnostics'] {
    return this._diags.session.diagnostics;
  }

  get lines(): number {
    return this._lines;
  }
}

export interface ReadOutcome {
  session: NativeSession | null;
  /** The long lines, by number, when asked for (`keepLinesFrom`); else null. */
  keptLines: Map<number, string> | null;
  /** Diagnostics for a file that gave no session at all. */
  diagnostics: NativeSession['diagnostics'];
  bytes: number;
}

/** Reads one agent file. Never throws for bad input: a file that cannot be read gives diagnostics. */
export async function readSessionFile(
  file: string,
  agentHint: MergeAgent | null = null,
  onBytes?: (bytes: number) => void,
  keepLinesFrom: number | null = null,
): Promise<ReadOutcome> {
  const agent = agentHint ?? agentFromPath(file);
  const table = await loadReaders();
  // A `.json` file is one document of the agent that writes that form (Gemini's older sessions).
  const wholeJson = agent !== null ? (agentModule(agent).wholeJsonFiles ? agent : undefined) : AGENT_MODULES.find((m) => m.wholeJsonFiles)?.name;
  if (file.endsWith('.json') && wholeJson !== undefined) return readWholeJson(file, table[wholeJson], onBytes);
  const feeder = new LineFeeder(file, agent, table, keepLinesFrom);
  let bytes = 0;
  try {
    const r = await splitJsonlFile(file, (line) => feeder.feed(line), onBytes);
    bytes = r.bytes;
  } catch (err) {
    return { session: null, keptLines: null, diagnostics: [fileError(file, err)], bytes };
  }
  const session = feeder.finish();
  if (session === null) {
    const diags = [...feeder.diagnostics];
    const ambiguous = feeder.ambiguousAgents;
    diags.push({
      severity: 'error',
      code: feeder.lines === 0 ? 'empty_file' : 'unknown_format',
      message:
        feeder.lines === 0
          ? 'the file holds no records'
          : ambiguous
            ? `ambiguous: ${ambiguous.join(' and ')} each claim its records alike, and no record tells them apart`
            : 'no record says which agent wrote this file',
      file,
      line: null,
    });
    return { session: null, keptLines: null, diagnostics: diags, bytes };
  }
  if (!session.readable) return { session: null, keptLines: null, diagnostics: [...session.diagnostics, noKnownRecords(file, session)], bytes };
  return { session, keptLines: feeder.keptLines, diagnostics: [], bytes };
}

function noKnownRecords(file: string, s: NativeSession): NativeSession['diagnostics'][number] {
  const types = Object.keys(s.record_counts).slice(0, 5).join(', ');
  return {
    severity: 'error',
    code: 'unknown_format',
    message: `no record of a known ${s.agent} type${types ? ` (saw ${types})` : ''}`,
    file,
    line: null,
  };
}

/** A session that is one JSON document (Gemini's older form), read whole. */
async function readWholeJson(file: string, createReader: (file: string) => SessionReader, onBytes?: (bytes: number) => void): Promise<ReadOutcome> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { session: null, keptLines: null, diagnostics: [fileError(file, err)], bytes: 0 };
  }
  onBytes?.(Buffer.byteLength(text));
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return {
      session: null,
      keptLines: null,
      diagnostics: [{ severity: 'error', code: 'invalid_json', message: `not JSON: ${(err as Error).message}`, file, line: null }],
      bytes: text.length,
    };
  }
  const reader = createReader(file);
  reader.add(doc, 0, '');
  const session = reader.finish();
  if (!session.readable) return { session: null, keptLines: null, diagnostics: [...session.diagnostics, noKnownRecords(file, session)], bytes: text.length };
  return { session, keptLines: null, diagnostics: [], bytes: text.length };
}

function fileError(file: string, err: unknown): NativeSession['diagnostics'][number] {
  const code = (err as NodeJS.ErrnoException).code;
  return {
    severity: 'error',
    code: code === 'ENOENT' ? 'missing_file' : 'unreadable_file',
    message: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a session file' : `cannot read: ${(err as Error).message}`,
    file,
    line: null,
  };
}

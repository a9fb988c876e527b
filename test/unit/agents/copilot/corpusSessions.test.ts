// The merge benchmark's Copilot sessions (scripts/gen-corpus.mjs, scripts/bench-lib/copilotCorpus.mjs)
// read by the real reader the way `rec merge` reads a file: no broken, invalid or unknown line,
// every line in the envelope the reader's quick path knows, and every call and decision the
// generator wrote found again (approvals, refusals with their feedback, cancels at a prompt).
// Otherwise the benchmark would time a reader that throws most of the corpus away.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCopilotSessionFile } from '../../../../src/agents/copilot/home.js';
import { CopilotEventsReader } from '../../../../src/agents/copilot/sessionReader.js';
import { COUNTED_HEAD, COUNTED_TYPES, ENVELOPE_TAIL } from '../../../../src/agents/copilot/sessionRecords.js';
import { LineFeeder, type ReaderTable } from '../../../../src/merge/readSession.js';
import { splitJsonlFile } from '../../../../src/readers/jsonlChunks.js';
import type { NativeSession } from '../../../../src/readers/nativeSession.js';
// @ts-expect-error: a plain .mjs script without types
import { generateCorpus } from '../../../../scripts/gen-corpus.mjs';

// Only the Copilot reader is asked for: the feeder is told the agent.
const READERS = { copilot: (file: string) => new CopilotEventsReader(file) } as ReaderTable;

async function readEvents(file: string): Promise<NativeSession> {
  const feeder = new LineFeeder(file, 'copilot', READERS);
  await splitJsonlFile(file, (line) => feeder.feed(line));
  return feeder.finish()!;
}

interface Line {
  type: string;
  data: Record<string, any>;
}

/** What the generator wrote, from its lines alone: [type, call_id, reason, related_call_id] per decision. */
function writtenDecisions(lines: readonly Line[]): Array<[string, string, string | null, string | null]> {
  const out: Array<[string, string, string | null, string | null]> = [];
  let firstCancelled: string | null = null;
  for (const { type, data } of lines) {
    if (type === 'user.message') firstCancelled = null;
    if (type !== 'permission.completed') continue;
    const { kind, feedback } = data['result'];
    const id: string = data['toolCallId'];
    if (kind === 'approved') out.push(['approval', id, null, null]);
    else if (kind === 'denied-interactively-by-user') out.push(['rejection', id, feedback, null]);
    else if (kind !== 'cancelled') throw new Error(`unexpected result kind ${kind}`);
    else if (firstCancelled === null) {
      firstCancelled = id;
      out.push(['rejection', id, null, null]);
    }
    // The cancelled prompts after the first were never put to the user (docs/copilot.md §4).
    else out.push(['skipped', id, null, firstCancelled]);
  }
  return out;
}

describe('gen-corpus: Copilot sessions, read by CopilotEventsReader', () => {
  let dir: string;
  let files: string[];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rec-corpus-'));
    // Eight sessions in 3 MB, two of them Copilot's; non-ASCII words in half the texts, as the benchmark has them.
    const corpus = generateCorpus(dir, { mb: 3, seed: 5, nonAscii: 0.5, sessions: 8 }) as { files: Array<{ agent: string; path: string }> };
    files = corpus.files.filter((f) => f.agent === 'copilot').map((f) => f.path);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are session-state/<sessionId>/events.jsonl, in the envelope of the real lines', () => {
    expect(files).toHaveLength(2);
    for (const file of files) {
      expect(isCopilotSessionFile(file), file).toBe(true);
      const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
      expect(lines.filter((l) => !ENVELOPE_TAIL.test(l))).toEqual([]);
      // The bookkeeping lines are the quick path's: counted from their head and tail, never parsed.
      const counted = lines.filter((l) => COUNTED_TYPES.has((JSON.parse(l) as Line).type));
      expect(counted.filter((l) => !COUNTED_HEAD.test(l))).toEqual([]);
    }
  });

  it('read with no diagnostics and no unknown record; every call and decision written is read back', async () => {
    const kinds = new Set<string>();
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as Line);
      const s = await readEvents(file);
      expect(s.diagnostics).toEqual([]);
      expect(s.unknown_records).toEqual([]);
      expect(s.session_id).toBe(basename(dirname(file)));
      expect(s.agent_version).toBe('1.0.102');

      const types: Record<string, number> = {};
      for (const l of lines) types[l.type] = (types[l.type] ?? 0) + 1;
      expect(s.record_counts).toEqual(types);

      const users = lines.filter((l) => l.type === 'user.message').map((l) => l.data['content']);
      expect(s.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(users);
      const requests = lines.flatMap((l) => (l.type === 'assistant.message' ? (l.data['toolRequests'] as Array<Record<string, unknown>>) : []));
      expect(s.calls.map((c) => [c.call_id, c.tool_name, c.tool_input])).toEqual(requests.map((q) => [q['toolCallId'], q['name'], q['arguments']]));
      const ran = new Set(lines.filter((l) => l.type === 'tool.execution_complete' && l.data['success'] === true).map((l) => l.data['toolCallId']));
      expect(s.calls.filter((c) => c.output_seen).map((c) => c.call_id).sort()).toEqual([...ran].sort());

      const decisions = writtenDecisions(lines);
      expect(s.findings.map((f) => [f.type, f.call_id, f.reason, f.related_call_id])).toEqual(decisions);
      // Every decision was a person's at the prompt.
      expect(s.findings.filter((f) => f.type !== 'skipped' && f.decided_by !== 'user')).toEqual([]);
      for (const [type, , reason] of decisions) kinds.add(`${type}${reason !== null ? ' with feedback' : ''}`);
    }
    // The corpus holds each kind of decision: approved, refused with feedback, cancelled at a prompt (first, then its batch).
    expect([...kinds].sort()).toEqual(['approval', 'rejection', 'rejection with feedback', 'skipped']);
  });
});

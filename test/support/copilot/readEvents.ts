// Reads a Copilot events.jsonl (or lines given as text) through the Copilot reader the way `rec merge`
// does (merge/readSession.ts's LineFeeder: JSON parse, diagnostics for a torn or corrupt line), before
// the agent has a registry row that would let readSessionFile pick it.
import { fileURLToPath } from 'node:url';
import { LineFeeder, type ReaderTable } from '../../../src/merge/readSession.js';
import { splitJsonlBuffer, splitJsonlFile } from '../../../src/readers/jsonlChunks.js';
import type { NativeSession } from '../../../src/readers/nativeSession.js';
import { CopilotEventsReader } from '../../../src/agents/copilot/sessionReader.js';

/** The recordings of 1.0.102 (scripts/record-copilot-fixtures.mjs). */
export const RECORDED_DIR = fileURLToPath(new URL('../../fixtures/copilot/1.0.102/recorded/', import.meta.url));

const AGENT = 'copilot';
const READERS: ReaderTable = { [AGENT]: (file: string) => new CopilotEventsReader(file) };

/** The session of one events file, read line by line as merge reads it. */
export async function readEventsFile(file: string): Promise<NativeSession> {
  const feeder = new LineFeeder(file, AGENT, READERS);
  await splitJsonlFile(file, (line) => feeder.feed(line));
  return feeder.finish()!;
}

/** The session of events.jsonl text (hostile input made in a test), under the name `file`. */
export function readEventsText(text: string, file = 'events.jsonl'): NativeSession {
  const feeder = new LineFeeder(file, AGENT, READERS);
  splitJsonlBuffer(Buffer.from(text), (line) => feeder.feed(line));
  return feeder.finish()!;
}

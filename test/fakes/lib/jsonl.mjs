// @ts-check
// Append-only JSONL writing, one line per record, synchronously: the real agents append each
// record as it happens, and recorders tail the file live, so a line must be on disk when the
// screen shows its effect.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export function appendJsonLine(file, record) {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, JSON.stringify(record) + '\n');
}

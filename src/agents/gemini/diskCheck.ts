// Whether a refused write_file / replace changed the file anyway. Gemini's record of such a call
// keeps what the file held and what the change would make of it (resultDisplay originalContent /
// newContent); the file on disk, read when the record is read, says which of the two it holds now.
// `as_proposed` for a refused change is a finding (the write happened although the user said no);
// `as_before` confirms it did not. Only the two file tools are checked; nothing else is read.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileChangeOf, isObject, type GeminiToolCall } from './sessionRecords.js';

export type DiskState = 'as_proposed' | 'as_before' | 'missing' | 'other';

const FILE_TOOLS = new Set(['write_file', 'replace', 'edit']);
/** Files larger than this are not compared (a change Gemini shows in a dialog is far smaller). */
const MAX_COMPARED_BYTES = 4 * 1024 * 1024;

export function diskStateOf(call: GeminiToolCall, cwd: string): DiskState | undefined {
  if (!FILE_TOOLS.has(call.name)) return undefined;
  const change = fileChangeOf(call);
  if (change.newContent === undefined) return undefined;
  const args = isObject(call.args) ? call.args : {};
  const argPath = typeof args['file_path'] === 'string' ? args['file_path'] : typeof args['path'] === 'string' ? args['path'] : undefined;
  const path = change.filePath ?? argPath;
  if (path === undefined) return undefined;
  let now: string;
  try {
    const buf = readFileSync(isAbsolute(path) ? path : resolve(cwd, path));
    if (buf.length > MAX_COMPARED_BYTES) return 'other';
    now = buf.toString('utf8');
  } catch {
    // ENOENT: a new file that was never written (or removed since); other errors say nothing either.
    return 'missing';
  }
  // A change that changes nothing proves nothing either way.
  if (now === change.newContent && change.newContent !== change.originalContent) return 'as_proposed';
  if (now === (change.originalContent ?? '')) return 'as_before';
  return 'other';
}

// Inserts values (strings, objects) into a list of a JSON document by editing its text (jsonc-parser's `modify`), so
// that everything else in the file stays byte-for-byte as it was: the user's formatting, key order,
// other settings and any comments. Only for a document the caller has checked parses.
import { createRequire } from 'node:module';
import type * as Jsonc from 'jsonc-parser';
import type { FormattingOptions, Node } from 'jsonc-parser';

// Loaded on first use: this writer is reached from the agents' registry rows (their permission
// rules), which `rec hook` reads on every hook, and a row loads no package
// (test/integration/hooks/hookLoads.test.ts).
let loaded: typeof Jsonc | undefined;
function jsonc(): typeof Jsonc {
  return (loaded ??= createRequire(import.meta.url)('jsonc-parser') as typeof Jsonc);
}

/** The file's own indentation, so that what is added looks like what is there (two spaces when it shows none). */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

/** The deepest node of `path` the document has (the list itself when it is there). */
function deepestOf(root: Node, path: readonly string[]): Node {
  let node = root;
  for (let n = 1; n <= path.length; n++) node = jsonc().findNodeAtLocation(root, path.slice(0, n)) ?? node;
  return node;
}

/**
 * `text` with `values` (strings, or objects such as Copilot's saved approvals) added to the list at
 * `path` (made when missing), skipping values already there (the same JSON). Where that part of the
 * file is written over several lines, the added lines are indented as the file is; where it is
 * written on one line, it stays on one line.
 */
export function addToJsonList(text: string, path: readonly string[], values: readonly unknown[]): string {
  const { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree } = jsonc();
  const root = parseTree(text);
  if (root === undefined) return text;
  const list = findNodeAtLocation(root, [...path]);
  const present = new Set((list?.type === 'array' ? (getNodeValue(list) as unknown[]) : []).map((v) => JSON.stringify(v)));
  const fresh = values.filter((v) => !present.has(JSON.stringify(v)));
  if (fresh.length === 0) return text;
  const near = deepestOf(root, path);
  const multiline = text.slice(near.offset, near.offset + near.length).includes('\n');
  const options = multiline ? { formattingOptions: formattingOf(text) } : {};
  if (list === undefined) return applyEdits(text, modify(text, [...path], fresh, options));
  let out = text;
  for (const value of fresh) out = applyEdits(out, modify(out, [...path, -1], value, { ...options, isArrayInsertion: true }));
  return out;
}

/** Why a settings file's text cannot be edited as a JSON object (it is left untouched then), or undefined when it can. */
export function whyNotJsonObject(text: string): string | undefined {
  try {
    const doc: unknown = JSON.parse(text);
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return 'not a JSON object; left untouched';
  } catch (err) {
    return `not valid JSON (${(err as Error).message}); left untouched`;
  }
  return undefined;
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitJsonlBuffer, splitJsonlFile, type JsonlLine } from '../../../src/readers/jsonlChunks.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-jsonl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lines(content: string | Buffer, chunk?: number): Promise<JsonlLine[]> {
  const file = join(dir, `f${Math.random()}.jsonl`);
  writeFileSync(file, content);
  const out: JsonlLine[] = [];
  await splitJsonlFile(file, (l) => out.push(l), undefined, chunk);
  return out;
}

describe('splitJsonlFile', () => {
  it('gives each line with its 1-based number and byte offset, skipping blank lines', async () => {
    const got = await lines('{"a":1}\n\n{"é":"ü"}\n{"b":2}\n');
    expect(got.map((l) => [l.text, l.lineNo, l.byteOffset, l.terminated])).toEqual([
      ['{"a":1}', 1, 0, true],
      ['{"é":"ü"}', 3, 9, true],
      ['{"b":2}', 4, 21, true],
    ]);
  });

  it('joins lines split across chunks and grows the buffer for lines longer than a chunk', async () => {
    const long = JSON.stringify({ text: 'x'.repeat(100) });
    const content = `{"a":1}\n${long}\n{"ü":"multi-byte across a chunk edge"}\n`;
    const got = await lines(content, 7);
    expect(got.map((l) => l.text)).toEqual(['{"a":1}', long, '{"ü":"multi-byte across a chunk edge"}']);
    expect(got[2]!.byteOffset).toBe(Buffer.byteLength(`{"a":1}\n${long}\n`));
  });

  it('marks a last line without a newline as not terminated (a writer may have been cut off)', async () => {
    const got = await lines('{"a":1}\n{"b":');
    expect(got.at(-1)).toMatchObject({ text: '{"b":', lineNo: 2, terminated: false });
  });

  it('strips a CR before the newline', async () => {
    const got = await lines('{"a":1}\r\n{"b":2}\r\n');
    expect(got.map((l) => l.text)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('rejects when the file cannot be opened', async () => {
    await expect(splitJsonlFile(join(dir, 'missing.jsonl'), () => {})).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('splitJsonlBuffer', () => {
  it('splits an in-memory buffer the same way', () => {
    const out: string[] = [];
    splitJsonlBuffer(Buffer.from('{"a":1}\n{"b":2}'), (l) => out.push(`${l.lineNo}:${l.text}:${l.terminated}`));
    expect(out).toEqual(['1:{"a":1}:true', '2:{"b":2}:false']);
  });
});

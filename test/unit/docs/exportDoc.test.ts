// docs/export.md's Collector example: its YAML parses, and its logs pipeline names only receivers,
// processors and exporters the file defines, among them the otlp and otlpjsonfile receivers and the
// clickhouse exporter the doc promises. The SQL names the attributes rec sends.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';

const DOC = readFileSync(join(import.meta.dirname, '../../../docs/export.md'), 'utf8');

function block(lang: string): string {
  const found = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(DOC);
  if (!found) throw new Error(`no ${lang} block in docs/export.md`);
  return found[1]!;
}

const Section = z.record(z.string(), z.unknown());
const CollectorConfig = z.object({
  receivers: Section,
  processors: Section.optional(),
  exporters: Section,
  service: z.object({ pipelines: z.object({ logs: z.object({ receivers: z.array(z.string()), processors: z.array(z.string()).optional(), exporters: z.array(z.string()) }) }) }),
});

describe('docs/export.md', () => {
  it('has a Collector config whose logs pipeline uses what it defines', () => {
    const config = CollectorConfig.parse(parse(block('yaml')));
    const logs = config.service.pipelines.logs;
    for (const r of logs.receivers) expect(Object.keys(config.receivers)).toContain(r);
    for (const p of logs.processors ?? []) expect(Object.keys(config.processors ?? {})).toContain(p);
    for (const e of logs.exporters) expect(Object.keys(config.exporters)).toContain(e);
    expect(logs.receivers).toEqual(expect.arrayContaining(['otlp', 'otlpjsonfile']));
    expect(logs.exporters).toContain('clickhouse');
  });

  it("queries the attributes rec sends: decision, tool.name, event.name", () => {
    const sql = block('sql');
    for (const name of ["'decision'", "'tool.name'", "'event.name'", "'rec.tool_decision'", "'reject'", "'accept'"]) expect(sql).toContain(name);
  });
});

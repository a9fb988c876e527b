#!/usr/bin/env node
// @ts-check
// Writes docs/merged-session.schema.json from the zod schema of the merged session (zod 4's
// z.toJSONSchema), so the published JSON Schema never drifts from the code.
//   npx tsc -p tsconfig.json && node scripts/gen-schema.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { MergedSession, MERGED_SCHEMA_VERSION } = await import(join(ROOT, 'dist', 'merge', 'mergedSession.js'));
const OUT = join(ROOT, 'docs', 'merged-session.schema.json');

const schema = {
  ...z.toJSONSchema(MergedSession, { target: 'draft-2020-12', unrepresentable: 'any' }),
  title: `rec merged session, schema_version ${MERGED_SCHEMA_VERSION}`,
  description: 'One agent session joined with the rec sidecar: see docs/merge.md.',
};
const text = `${JSON.stringify(schema, null, 2)}\n`;
if (process.argv.includes('--check')) {
  const current = readFileSync(OUT, 'utf8');
  if (current !== text) {
    console.error('docs/merged-session.schema.json is out of date: run node scripts/gen-schema.mjs');
    process.exit(1);
  }
} else writeFileSync(OUT, text);

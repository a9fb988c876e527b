#!/usr/bin/env node
// @ts-check
// Prints the README's version table from the agents' one version fact (each module's verifiedVersions,
// src/agents/<name>/strings/index.ts); test/unit/agents/verifiedVersions.test.ts holds the README to it.
//
//   node scripts/version-table.mjs
import { register } from 'node:module';

register('./tsLoader.mjs', import.meta.url);
const { versionTable } = await import('../test/support/agentVersions.ts');
process.stdout.write(`${versionTable().join('\n')}\n`);

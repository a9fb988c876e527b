// @ts-check
// Child program for sqliteDriver.test.ts: opens a database through rec's driver (or, given a
// package name, that package alone) and, over many turns of the event loop, prepares and drops
// statements among other garbage, so that V8 collects them from the event loop as in a long run,
// then exits with the database still open. better-sqlite3 12 built for Node 24.19+ aborts the
// process in such a collection (SIGABRT, "Assertion failed: (env) != nullptr"); a healthy driver
// exits 0 and prints the package it used.
//   statement-gc-child.mjs DB [PACKAGE]
// rec's own processes load child_process; on Node 24.21 with better-sqlite3 12 this workload was
// seen to abort every time with it loaded and never without it.
import 'node:child_process';
import { createRequire } from 'node:module';

const ROUNDS = 1_000;
const STATEMENTS_PER_ROUND = 50;
const GARBAGE_PER_ROUND = 2_000;

const [dbPath, packageName] = process.argv.slice(2);
// A named package is loaded alone: a second SQLite addon in the process changes when V8 collects
// and was seen to hide the abort.
const driver = packageName
  ? { Database: createRequire(import.meta.url)(packageName), SQLITE_PACKAGE: packageName }
  : // dist/ is src/ compiled, without .d.ts files: the module is typed from its source.
    /** @type {typeof import('../../../src/store/sqliteDriver.ts')} */ (
      await import(new URL('../../../dist/store/sqliteDriver.js', import.meta.url).href)
    );
const db = new driver.Database(dbPath);
let garbage = [];
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < STATEMENTS_PER_ROUND; i++) db.prepare('SELECT ' + i).get();
  garbage = Array.from({ length: GARBAGE_PER_ROUND }, (_, i) => ({ i, s: 'x' + i }));
  await new Promise((resolve) => setImmediate(resolve));
}
await new Promise((resolve) => setTimeout(resolve, 10));
console.log(`${driver.SQLITE_PACKAGE} ok ${garbage.length}`);

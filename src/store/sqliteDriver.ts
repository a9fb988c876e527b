// Which better-sqlite3 build this Node can load. The only place that names the package: everything
// else, tests included, takes `Database` from here.
//
// better-sqlite3 13 is built on Node-API 10 (Node 22.14+); on Node 20 (Node-API 9) its addon
// crashes the process as it loads. better-sqlite3 12 still loads on Node 20, but its statements
// are `node::ObjectWrap`s, and Node 24.19+ aborts the process when one is collected (README, Install).
// So Node-API 10 and up get 13; older Nodes get 12, installed under the alias
// `better-sqlite3-node20` as an optional dependency.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The first Node-API version better-sqlite3 13 runs on. */
const NAPI_FOR_CURRENT_DRIVER = 10;

export type DatabaseConstructor = typeof BetterSqlite3;
export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteStatement = BetterSqlite3.Statement;

/** The package this Node loads: `better-sqlite3` (13) or `better-sqlite3-node20` (12). */
export const SQLITE_PACKAGE =
  Number(process.versions.napi) >= NAPI_FOR_CURRENT_DRIVER ? 'better-sqlite3' : 'better-sqlite3-node20';

function loadDriver(): DatabaseConstructor {
  try {
    return require(SQLITE_PACKAGE) as DatabaseConstructor;
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new Error(
      `cannot load ${SQLITE_PACKAGE} on Node ${process.versions.node} (Node-API ${process.versions.napi}): ${why}` +
        (SQLITE_PACKAGE === 'better-sqlite3'
          ? ''
          : ' — on Node 20, install rec without --omit=optional, or use Node 22.14 or newer'),
    );
  }
}

export const Database: DatabaseConstructor = loadDriver();

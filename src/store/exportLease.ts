// One `rec export` at a time per destination. Two exports reading the same cursor would each send
// the same batch before either moved it, so an export first takes the destination's lease, in a
// BEGIN IMMEDIATE transaction (SQLite's write lock: of two exports, one reads and writes the lease
// before the other reads it). The lease names its holder (pid, host) and runs out unless renewed;
// it is renewed in the same transaction that moves the cursor, so a cursor only moves while its
// lease is held.
import { hostname } from 'node:os';
import { newId } from './ids.js';
import type { SidecarDb } from './sidecarDb.js';
import { EXPORT_LEASES, type ExportLeaseRow } from './tables.js';

/**
 * How long a lease lasts without renewal. A holder renews it with every batch, and one batch is
 * bounded well below this (the HTTP exporter's timeout, 10 s by default; a file's three tries). It
 * only frees a destination whose holder cannot be checked: one on another host (a sidecar on a
 * shared disk), or a pid reused after a crash. A holder that died on this host frees it at once.
 */
export const LEASE_TTL_MS = 120_000;

export interface LeaseHolder {
  readonly pid: number;
  readonly host: string;
  readonly expiresAt: string;
}

export type TakeLease = { readonly ok: true; readonly lease: ExportLease } | { readonly ok: false; readonly holder: LeaseHolder };

export class ExportLease {
  private constructor(
    private readonly _db: SidecarDb,
    readonly destination: string,
    private readonly _token: string,
  ) {}

  /** Takes the destination's lease, unless another live export holds it: then who does. */
  static take(db: SidecarDb, destination: string, now: Date = new Date()): TakeLease {
    const token = newId();
    const taken = db.connection.transaction((): LeaseHolder | undefined => {
      const raw = db.connection.prepare('SELECT * FROM export_leases WHERE destination = ?').get(destination) as Record<string, unknown> | undefined;
      const row = raw === undefined ? undefined : EXPORT_LEASES.decode(raw);
      // A lease row that does not decode is nobody's: taking it over is the way out.
      if (row?.ok && isHeld(row.value, now)) return { pid: row.value.holder_pid, host: row.value.holder_host, expiresAt: row.value.expires_at };
      const lease = EXPORT_LEASES.encode({ destination, holder_pid: process.pid, holder_host: hostname(), token, expires_at: expiry(now) });
      db.connection
        .prepare(
          `INSERT INTO export_leases (destination, holder_pid, holder_host, token, expires_at)
           VALUES (@destination, @holder_pid, @holder_host, @token, @expires_at)
           ON CONFLICT (destination) DO UPDATE SET holder_pid = excluded.holder_pid,
             holder_host = excluded.holder_host, token = excluded.token, expires_at = excluded.expires_at`,
        )
        .run(lease);
      return undefined;
    }).immediate();
    return taken === undefined ? { ok: true, lease: new ExportLease(db, destination, token) } : { ok: false, holder: taken };
  }

  /**
   * Extends the lease, inside the caller's transaction (the one that moves the cursor). False when
   * it is no longer this export's: it ran out and another export took it.
   */
  renew(now: Date = new Date()): boolean {
    const changed = this._db.connection
      .prepare('UPDATE export_leases SET expires_at = ? WHERE destination = ? AND token = ?')
      .run(expiry(now), this.destination, this._token).changes;
    return changed === 1;
  }

  /** Gives the lease back (if it is still this export's), so the next export need not wait it out. */
  release(): void {
    this._db.connection.prepare('DELETE FROM export_leases WHERE destination = ? AND token = ?').run(this.destination, this._token);
  }
}

function expiry(now: Date): string {
  return new Date(now.getTime() + LEASE_TTL_MS).toISOString();
}

/** Held: not run out, and, when the holder is on this host, its process still there. */
function isHeld(row: ExportLeaseRow, now: Date): boolean {
  if (Date.parse(row.expires_at) <= now.getTime()) return false;
  if (row.holder_host !== hostname()) return true;
  try {
    process.kill(row.holder_pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user; ESRCH: it is gone.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

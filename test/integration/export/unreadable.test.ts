// A row the events codec refuses (here a type from a newer rec) is not guessed at: export leaves it
// out, says so in one line with exit status 3, counts it in the cursor, and still sends the run's
// other events. The cursor passes it only with an acknowledged batch: a batch that could not be
// written leaves the cursor where it was, and the next export sends the readable events then.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportCommand } from '../../../src/commands/export.js';
import { Database } from '../../../src/store/sqliteDriver.js';
import { runCommand } from '../../support/runCommand.js';
import { fromOtlpJson, recordsOf } from '../../support/otlpReceiver.js';
import { SidecarFixture } from '../../support/sidecarFixture.js';

const fixture = new SidecarFixture().addRun({ id: 'run-1', agent: 'codex' });
for (let i = 0; i < 5; i++) {
  fixture.addEvent({ id: `e${i}`, run_id: 'run-1', type: 'rejection', ts: new Date(Date.UTC(2026, 10, 22, 9, 0, i)).toISOString(), call_id: `call_${i}`, trigger: 'esc' });
}
fixture.close();
const raw = new Database(fixture.path);
raw.prepare("UPDATE events SET type = 'verdict' WHERE id = ?").run(fixture.eventId('e2'));
raw.close();
afterAll(() => fixture.remove());

const sentIds = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .flatMap((line) => recordsOf(fromOtlpJson(line)))
    .map((r) => fixture.labelIds(String(r.attributes['rec.event_id'])));

function cursor(destination: string): unknown {
  const db = new Database(fixture.path, { readonly: true });
  try {
    return db.prepare('SELECT run_id, sent, skipped, done FROM export_cursors WHERE destination = ?').all(destination);
  } finally {
    db.close();
  }
}

describe('rec export and a row this rec cannot read', () => {
  it('leaves it out in one line, exit 3, sends the others once, and counts it in the cursor', async () => {
    const dir = join(fixture.dir, 'not-yet');
    const file = join(dir, 'out.jsonl');
    const failed = await runCommand(exportCommand, ['--db', fixture.path, '--otlp-file', file]);
    expect(failed.code).toBe(1);
    expect(cursor(`file ${file}`)).toEqual([]);

    mkdirSync(dir);
    const r = await runCommand(exportCommand, ['--db', fixture.path, '--otlp-file', file]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('Sent 4 events of 1 run to ' + file + '.\n');
    const lines = fixture.labelIds(r.stderr).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^rec export: incomplete: 1 event this rec cannot read left out, not sent \(first: event e2: type .*\) \(exit status 3\)$/);
    expect(sentIds(file)).toEqual(['e0', 'e1', 'e3', 'e4']);
    expect(cursor(`file ${file}`)).toEqual([{ run_id: 'run-1', sent: 4, skipped: 1, done: 1 }]);

    const again = await runCommand(exportCommand, ['--db', fixture.path, '--otlp-file', file]);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(again.stdout).toContain('Nothing new');
    expect(sentIds(file)).toHaveLength(4);
  });
});

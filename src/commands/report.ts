// `rec report`: the sessions `rec stats` reads, as one self-contained HTML page. The figures come
// from the same aggregator over the same selection, so the page's numbers are `rec stats --json`'s.
// The file appears whole or not at all (a temporary name, then a rename), private to the user like
// the sidecar: it quotes commands, reasons and outputs.
import { constants } from 'node:fs';
import { access, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { exitStatus } from '../merge/mergeRun.js';
import { reason } from '../merge/outputFiles.js';
import { ReportBuilder } from '../report/reportData.js';
import { renderReportPage } from '../report/reportPage.js';
import type { CommandIO } from './commandIO.js';
import { parseOrReport } from './commandKit.js';
import { REPORT_SPEC } from './commandSpec.js';
import { plural } from './formatTable.js';
import { toSelectionArgs, type SelectionArgs } from './selectionArgs.js';
import { runSelectionCommand } from './selectionRun.js';
import { escapeControls } from './terminalText.js';

export const DEFAULT_REPORT_FILE = 'rec-report.html';
const REPORT_FILE_MODE = 0o600;

export async function reportCommand(args: string[], io: CommandIO): Promise<number> {
  let parsed!: SelectionArgs;
  const status = parseOrReport(REPORT_SPEC, args, io, (p) => (parsed = toSelectionArgs(p)));
  if (typeof status === 'number') return status;
  const file = resolve(io.cwd, parsed.output ?? DEFAULT_REPORT_FILE);
  // Before a long read: a folder that cannot take the page is said at once.
  const unwritable = await access(dirname(file), constants.W_OK).then(() => null, reason);
  if (unwritable !== null) return cannotWrite(io, file, unwritable);
  const builder = new ReportBuilder(parsed.top);
  const outcome = await runSelectionCommand('report', parsed, io, 'report', (r) => {
    if (r.stats && r.detail) builder.add(r.stats, r.detail);
  }, { whereAll: 'rec stats --all prints every one' });
  if (!outcome.ok) return outcome.status;
  const data = builder.build(new Date(), parsed.selection.runId !== null);
  const written = await writeAtomically(file, renderReportPage(data));
  if (written !== null) return cannotWrite(io, file, written);
  const s = data.stats;
  io.stdout.write(`${escapeControls(file)}\n`);
  io.stdout.write(
    `${plural(s.sessions, 'session')}: ${s.approvals} approved, ${s.rejections.total} rejected, ${s.skipped.total} skipped, ` +
      `${s.interruptions.total} interrupted\n`,
  );
  return exitStatus(outcome.summary);
}

function cannotWrite(io: CommandIO, file: string, why: string): number {
  io.stderr.write(`rec report: cannot write ${escapeControls(file)}: ${escapeControls(why)}\n`);
  return 1;
}

/** Writes `text` to `file` under a temporary name in the same folder, then renames it; the error's message, or null. */
async function writeAtomically(file: string, text: string): Promise<string | null> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, text, { mode: REPORT_FILE_MODE, flag: 'wx' });
    await rename(temp, file);
    return null;
  } catch (err) {
    await unlink(temp).catch(() => undefined); // absent when writeFile could not create it
    return reason(err);
  }
}

// What `rec doctor` prints for one agent: a table at 80 columns at most (scenario, expected rows,
// seen rows, pass or fail), the failures with the saved screen of each, and the verdict; or the same
// as one JSON object.
import type { DoctorScenarioResult } from '../store/doctorRuns.js';
import { cell, formatDuration, formatTable, type Column } from './formatTable.js';

/** The doctor's table never takes more, whatever the terminal: it is pasted into reports. */
export const DOCTOR_WIDTH = 80;

export interface DoctorAgentResult {
  readonly agent: string;
  readonly version: string;
  readonly agent_bin: string;
  readonly started_at: string;
  readonly ended_at: string;
  readonly wall_ms: number;
  /** Every scenario run passed. */
  readonly passed: boolean;
  /** Every scenario of the agent ran (no --scenario): only such a run verifies a version and is recorded. */
  readonly whole: boolean;
  /** 'doctor' when a whole run passed or failed; null for a run of one chosen scenario, which verifies nothing. */
  readonly verified_by: 'doctor' | null;
  readonly scenarios: readonly DoctorScenarioResult[];
  /** The database the result was recorded in; null when recording it failed (`record_error` says why). */
  readonly recorded_in: string | null;
  readonly record_error: string | null;
}

const COLUMNS: readonly Column[] = [{ header: 'SCENARIO' }, { header: 'EXPECTED', shrink: true }, { header: 'SEEN', shrink: true }, { header: 'OK' }];

/** The table, then one paragraph per failure, then the verdict; every line at most `width` (≤ 80) columns. */
export function doctorReport(r: DoctorAgentResult, width: number): string {
  const w = Math.min(width, DOCTOR_WIDTH);
  const rows: string[][] = [];
  for (const s of r.scenarios) {
    const seen = s.seen.length > 0 ? s.seen : ['(none)'];
    const lines = Math.max(s.expected.length, seen.length);
    for (let i = 0; i < lines; i += 1) {
      const at = (list: readonly string[]): string => (list[i] !== undefined ? cell(list[i]) : '');
      rows.push([i === 0 ? cell(s.name) : '', at(s.expected), at(seen), i === 0 ? outcome(s) : '']);
    }
  }
  const out = [...wrap(`${r.agent} ${r.version} (${r.agent_bin})`, w, '  '), formatTable(COLUMNS, rows, w).trimEnd()];
  for (const s of r.scenarios.filter((x) => !x.pass)) {
    const again = s.flaky === true ? '; passed when run again' : '; failed again when run again';
    out.push(...wrap(`${outcome(s)} ${s.name}: ${s.problem ?? 'failed'}${again}`, w, '  '));
    if (s.capture !== null) out.push(...wrap(`screen: ${s.capture}`, w, '  ', '  '));
  }
  out.push(...wrap(verdict(r), w, ''));
  return out.join('\n') + '\n';
}

export function doctorJson(r: DoctorAgentResult): string {
  return JSON.stringify(r) + '\n';
}

/** pass (first time), FLAKY (failed, then passed once more), FAIL (failed twice). */
function outcome(s: DoctorScenarioResult): string {
  if (s.pass) return 'pass';
  return s.flaky === true ? 'FLAKY' : 'FAIL';
}

function verdict(r: DoctorAgentResult): string {
  const passed = r.scenarios.filter((s) => s.pass).length;
  const flaky = r.scenarios.filter((s) => s.flaky === true).length;
  const head = `${passed} of ${r.scenarios.length} scenarios passed first time${flaky > 0 ? ` (${flaky} flaky: failed, then passed once more)` : ''} in ${formatDuration(r.wall_ms)}`;
  if (!r.whole) {
    return `${head}: a run of chosen scenarios verifies nothing and is not recorded; \`rec doctor ${cell(r.agent)}\` runs them all.`;
  }
  const where = r.recorded_in !== null ? ` (recorded in ${cell(r.recorded_in)})` : `; not recorded: ${cell(r.record_error ?? 'unknown error')}`;
  if (r.passed) return `${head}: rec counts ${cell(r.agent)} ${cell(r.version)} as verified from now on${where}.`;
  return `${head}: ${cell(r.agent)} ${cell(r.version)} is not verified; report the failures above with their screens${where}.`;
}

/** Words wrapped to `width`; a word longer than a line (a path) stands on its own line, whole. */
function wrap(text: string, width: number, indent: string, first = ''): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of cell(text).split(' ')) {
    const lead = line === first ? first : line + ' ';
    if (line !== first && lead.length + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else {
      line = lead + word;
    }
  }
  lines.push(line);
  return lines;
}

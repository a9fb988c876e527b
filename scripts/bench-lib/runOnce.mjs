// @ts-check
// One timed run of a program under the outer pty: until a marker is read (or until exit), with the
// wrapper's own CPU time and peak memory, and rec's closing note if it printed one.
import { PtyProcess } from './ptyProcess.mjs';

/** rec prints this on stderr (the same pty) when a part of the recording was disabled. */
const REC_NOTE = /rec: [^\r\n]*/g;

/**
 * @param {{file: string, args: string[], env: NodeJS.ProcessEnv}} spec
 * @param {{marker?: string, timeoutMs: number, watchMemory?: boolean}} opts
 * Without a marker the run is timed until exit.
 */
export async function runOnce(spec, opts) {
  const p = new PtyProcess({ ...spec, watchMemory: opts.watchMemory });
  const guard = setTimeout(() => void p.stop(), opts.timeoutMs);
  try {
    let markerMs;
    let cpuAtMarker;
    let bytesAtMarker;
    let markerLost = false;
    if (opts.marker !== undefined) {
      try {
        markerMs = await p.waitFor(opts.marker, opts.timeoutMs);
        cpuAtMarker = p.cpuSeconds();
        bytesAtMarker = p.bytes;
      } catch (err) {
        // The program exited without the marker reaching us: the tail of its output was lost on
        // the way. That is a finding to report, not a reason to stop the bench.
        if (!(/** @type {{ exited?: boolean }} */ (err)).exited) throw err;
        markerLost = true;
      }
    }
    const exit = await p.exited;
    const notes = p.tail().match(REC_NOTE) ?? [];
    return {
      markerMs,
      markerLost,
      exitMs: exit.ms,
      exitCode: exit.exitCode,
      signal: exit.signal,
      bytesAtMarker,
      bytes: p.bytes,
      cpuAtMarker,
      hwmKb: exit.hwmKb,
      recNotes: notes.filter((n) => !n.includes('END-OF-OUTPUT')),
    };
  } catch (err) {
    await p.stop();
    throw err;
  } finally {
    clearTimeout(guard);
  }
}

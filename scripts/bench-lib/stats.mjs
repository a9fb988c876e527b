// @ts-check
// Small statistics and formatting helpers for scripts/bench. Percentiles are nearest-rank, the
// usual definition for latency tables (p99 of 2000 samples is the 1980th smallest).

/** Nearest-rank percentile of `values` (0 < p ≤ 100); NaN for no values. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1];
}

export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarize(values) {
  return {
    n: values.length,
    min: Math.min(...values),
    median: median(values),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    max: Math.max(...values),
  };
}

export function round(n, digits = 3) {
  if (!Number.isFinite(n)) return n;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function fixed(n, digits = 2) {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}

/** Prints rows (arrays of cells) as an aligned table under a header; numbers right-aligned. */
export function printTable(header, rows, out = process.stdout) {
  const all = [header, ...rows].map((r) => r.map((c) => String(c)));
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.every((r) => typeof r[i] === 'number' || /^[-\d.,×%]+[a-zA-Z×%/ ]*$/.test(String(r[i]))));
  const line = (r) =>
    r
      .map((c, i) => (i > 0 && numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  out.write(`  ${line(all[0])}\n`);
  out.write(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const r of all.slice(1)) out.write(`  ${line(r)}\n`);
}

/** "met" / "NOT met" against a goal, for the summary lines. */
export function verdict(ok) {
  return ok ? 'met' : 'NOT met';
}

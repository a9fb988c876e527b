#!/usr/bin/env node
// @ts-check
// Measures `rec report` against `rec stats` on one corpus (scripts/gen-corpus.mjs): wall time of
// each, interleaved (stats, report, stats, report…) so that a machine's changing load falls on both
// alike; the page's size; and, in headless Chromium, when the page opened from the file has drawn
// every chart and marked itself ready (`body[data-ready]`; the charts are drawn before it, so this
// bounds the first chart from above). Reads without a sidecar. Needs a build (dist/).
//
//   node scripts/bench-report.mjs CORPUS_DIR [--rounds 2] [--opens 3] [--chromium /usr/bin/chromium]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const REC = new URL('../bin/rec.js', import.meta.url).pathname;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '2' }, opens: { type: 'string', default: '3' }, chromium: { type: 'string', default: '/usr/bin/chromium' } },
});
if (positionals.length !== 1) {
  console.error('usage: node scripts/bench-report.mjs CORPUS_DIR [--rounds 2] [--opens 3] [--chromium PATH]');
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'rec-bench-report-'));
const page = join(work, 'report.html');
const common = ['--no-progress', '--db', join(work, 'none.db')];

/** Wall seconds of one rec command; its output is dropped, a failure stops the benchmark. */
function timed(args) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [REC, ...args], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // Exit 1 is rec's "read with diagnostics"; anything else is a failure.
  if (r.status !== 0 && r.status !== 1) throw new Error(`rec ${args[0]} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
  return seconds;
}

try {
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (let round = 1; round <= Number(values.rounds); round++) {
    const stats = timed(['stats', positionals[0], '--json', ...common]);
    const report = timed(['report', positionals[0], '-o', page, ...common]);
    console.log(`round ${round}: stats ${stats.toFixed(2)} s, report ${report.toFixed(2)} s, report/stats ${(report / stats).toFixed(2)}`);
  }
  console.log(`page: ${(statSync(page).size / 1e6).toFixed(2)} MB`);
  const context = await chromium.launchPersistentContext(join(work, 'profile'), {
    executablePath: values.chromium,
    headless: true,
    offline: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    for (let i = 1; i <= Number(values.opens); i++) {
      const tab = await context.newPage();
      // Noted in the page as the attribute is set, not when Playwright's polling sees it.
      // The callback runs in the page, where `document` is the page's.
      await tab.addInitScript(() => {
        /* global document */
        new MutationObserver((_, observer) => {
          if (document.body?.getAttribute('data-ready') !== 'true') return;
          globalThis.recReadyAt = performance.now();
          observer.disconnect();
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
      });
      await tab.setViewportSize({ width: 1280, height: 800 });
      await tab.goto(pathToFileURL(page).href);
      await tab.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
      const ready = await tab.evaluate(() => globalThis.recReadyAt);
      const dom = await tab.evaluate(() => /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]).domContentLoadedEventEnd);
      const charts = await tab.$$eval('canvas', (cs) => cs.length);
      console.log(`open ${i}: ${charts} charts drawn and ready by ${(ready / 1000).toFixed(2)} s, DOMContentLoaded ${(dom / 1000).toFixed(2)} s`);
      await tab.close();
    }
  } finally {
    await context.close();
  }
  console.log(`load average at end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

// The page of `rec report`: one HTML file with its data, styles and scripts inline, so it works
// offline from a file. A Content-Security-Policy forbids every request and lets run only the two
// scripts it names by hash (Chart.js and the page's own), so text from sessions, which the page
// only ever sets as text, could not run even if it were parsed as HTML. The data sits in a JSON
// script block with every `<` escaped: nothing in it can close the block.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReportData } from './reportData.js';

/** The page's script and styles; two levels up from src/report/ and from dist/report/ alike. */
const ASSETS = fileURLToPath(new URL('../../assets/report/', import.meta.url));

/** Chart.js's browser build, read from the installed package: the page carries its own copy. */
function chartLibrary(): string {
  const main = createRequire(import.meta.url).resolve('chart.js');
  return readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8');
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** JSON that a script block holds safely: no `<` (so no `</script>` or `<!--`), no line separators. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** A script that contains `</script` would end its block early; the page refuses to carry one. */
function inlineScript(text: string, what: string): string {
  if (/<\/script|<!--/i.test(text)) throw new Error(`${what} cannot be inlined: it contains </script or <!--`);
  return text;
}

export function renderReportPage(data: ReportData): string {
  const chart = inlineScript(chartLibrary(), 'Chart.js');
  const page = inlineScript(readFileSync(join(ASSETS, 'page.js'), 'utf8'), 'the report script');
  const css = readFileSync(join(ASSETS, 'page.css'), 'utf8');
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(chart)} ${sha256(page)}`,
    `style-src ${sha256(css)}`,
    "img-src 'none'",
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<title>rec report</title>',
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    '<noscript>This report draws its tables and charts with JavaScript; open it in a browser with scripts on.</noscript>',
    '<main id="app" aria-live="polite"></main>',
    `<script type="application/json" id="rec-data">${scriptSafeJson(data)}</script>`,
    `<script>${chart}</script>`,
    `<script>${page}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

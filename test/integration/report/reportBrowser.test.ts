// `rec report` opened in a real headless Chromium (Debian's chromium package, driven by
// playwright-core): the page's numbers are `rec stats --json`'s on the recorded sessions of all three
// agents; a replayed real-CLI session of each agent shows on its timeline every decision with its
// key and reason, and every prompt with the options it offered (the chosen one marked);
// session text from the hostile corpus (and HTML aimed at the page) runs nothing, opens nothing
// and requests nothing; no page makes a request or logs an error. One browser for the whole file.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCommand } from '../../../src/commands/report.js';
import { statsCommand } from '../../../src/commands/stats.js';
import type { StatsReport } from '../../../src/stats/aggregateStats.js';
import { fixturesDir } from '../../support/agentVersions.js';
import { artefactPath } from '../../support/golden.js';
import { HOSTILE } from '../../support/hostileStrings.js';
import { REPO_ROOT } from '../../support/rec.js';
import { runCommand } from '../../support/runCommand.js';
import { replayRecorded as replayClaude } from '../../support/claude/recordedRun.js';
import { replayRecorded as replayCodex } from '../../support/codex/recordedRun.js';
import { replayRecorded as replayGemini } from '../../support/gemini/recordedRun.js';
import type { JourneyStep } from '../../support/recordedRun.js';
import type { Journey } from '../../support/journey.js';

/** Debian's package; CI installs it where it is missing (.ci/run). */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
/** The README's picture: rewritten only with UPDATE_GOLDEN=1; otherwise made in the scratch folder and checked there. */
const SCREENSHOT = join(REPO_ROOT, 'docs', 'report.png');
/** HTML and script aimed at the page rather than at a terminal. */
const HOSTILE_HTML = '<script>alert(1)</script><img src=x onerror=alert(2)></script><!-- <a href="https://evil.example/">x</a> javascript:alert(3) <iframe src="https://evil.example/"></iframe> \u2028';
/** How the page names each key. */
const KEYS: Record<string, string> = { esc: 'Esc', ctrl_c: 'Ctrl+C', enter: 'Enter on an option', digit: 'a digit', letter: 'a letter', tab: 'Tab with a reason', hook: 'a hook', rule: 'a rule', exit: 'agent exit' };
const RECORDED = ['codex', 'claude', 'gemini'].map((a) => join(fixturesDir(a), 'recorded'));

let dir: string;
let context: BrowserContext;
/** What each page did that it must not: requests, dialogs, navigations, console errors. */
const incidents: string[] = [];

async function report(args: string[]): Promise<string> {
  const file = join(dir, `report-${incidents.length}-${Math.random().toString(36).slice(2)}.html`);
  const r = await runCommand(reportCommand, [...args, '-o', file, '--no-progress', '--db', join(dir, 'none.db')]);
  expect(r.code === 0 || r.code === 1, r.stderr).toBe(true);
  expect(r.stdout.split('\n')[0]).toBe(file);
  return file;
}

async function stats(args: string[]): Promise<StatsReport> {
  const r = await runCommand(statsCommand, [...args, '--json', '--no-progress', '--db', join(dir, 'none.db')]);
  return JSON.parse(r.stdout) as StatsReport;
}

async function open(file: string, width = 1280): Promise<Page> {
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  page.on('request', (r) => {
    if (r.url() !== url) incidents.push(`request ${r.url()}`);
  });
  page.on('dialog', (d) => {
    incidents.push(`dialog ${d.message()}`);
    void d.dismiss();
  });
  page.on('framenavigated', (f) => {
    if (f.url() !== url) incidents.push(`navigation ${f.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') incidents.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => incidents.push(`page error ${e.message}`));
  await page.setViewportSize({ width, height: 800 });
  await page.goto(url);
  await page.waitForSelector('body[data-ready=true]', { timeout: 20_000 });
  return page;
}

/** The rows of a table on the page, each cell's text. */
async function rows(page: Page, id: string): Promise<string[][]> {
  return page.$$eval(`#${id} tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rec-report-'));
  context = await chromium.launchPersistentContext(join(dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: FLAGS, offline: true });
}, 60_000);

afterAll(async () => {
  await context?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('rec report in headless Chromium', () => {
  it('shows the numbers of rec stats --json on the recorded sessions of all three agents; the screenshot', async () => {
    const file = await report(RECORDED);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const expected = await stats(RECORDED);
    expect(Object.keys(expected.sessions_by_agent).sort()).toEqual(['claude', 'codex', 'gemini']);
    const page = await open(file);
    const cards = Object.fromEntries(await page.$$eval('[data-stat]', (els) => els.map((e) => [e.getAttribute('data-stat'), Number(e.textContent)])));
    expect(cards).toEqual({
      sessions: expected.sessions,
      calls: expected.calls,
      approvals: expected.approvals,
      rejections: expected.rejections.total,
      skipped: expected.skipped.total,
      interruptions: expected.interruptions.total,
      unknown_fates: expected.unknown_fates,
      misses: expected.misses.total,
    });
    const byTrigger = (await rows(page, 'by-trigger')).map(([k, n]) => [k!.replace(/^.+ \((.+)\)$/, '$1'), Number(n)]);
    expect(byTrigger).toEqual(expected.rejections.by_trigger.map((r) => [r.key, r.count]));
    const byDecider = (await rows(page, 'by-decided-by')).map(([k, n]) => [k!.replace(/^.+ \((.+)\)$/, '$1'), Number(n)]);
    expect(byDecider).toEqual(expected.rejections.by_decided_by.map((r) => [r.key, r.count]));
    const byTool = (await rows(page, 'rate-by-tool')).map(([tool, calls, rej]) => [tool, Number(calls), Number(rej)]);
    expect(byTool).toEqual(expected.rejection_rate_by_tool.map((r) => [r.tool, r.calls, r.rejections]));
    const refused = (await rows(page, 'most-refused')).map(([what, n]) => [what, Number(n)]);
    expect(refused.map(([, n]) => n)).toEqual(expected.most_refused_commands.map((r) => r.count));
    // Every chart drew something: a canvas with no painted pixel is a blank chart.
    const painted = await page.$$eval('canvas', (cs) => cs.map((c) => (c as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 3 && v > 0)));
    expect(painted.length).toBeGreaterThanOrEqual(5);
    expect(painted.every(Boolean)).toBe(true);
    const screenshot = artefactPath(SCREENSHOT, dir);
    await page.screenshot({ path: screenshot });
    expect(statSync(screenshot).size).toBeGreaterThan(20_000);
    // At 800 px nothing is wider than the window, once the charts have followed the resize (Chart.js
    // redraws from a ResizeObserver, a frame or more after the viewport changed).
    await page.setViewportSize({ width: 800, height: 800 });
    const fits = await page
      .waitForFunction(() => document.documentElement.scrollWidth <= 800, undefined, { timeout: 10_000 })
      .then(() => true, () => false);
    expect(fits, `page ${await page.evaluate(() => document.documentElement.scrollWidth)} px wide at 800`).toBe(true);
    await page.close();
    expect(incidents).toEqual([]);
  }, 120_000);

  it.each([
    ['codex', 'shell-reject-then-reason'],
    ['claude', 'bash-reject-reason'],
    ['gemini', 'parallel-writes-approve-then-reject'],
  ] as const)('a replayed real %s session (%s) opens on its timeline (--run): every decision with its key and reason, every prompt with its options, by keyboard too', async (agent, name) => {
    let file = '';
    let journey!: Journey;
    const afterJourney: JourneyStep = async (run) => {
      journey = run.journey;
      file = join(dir, `run-${agent}.html`);
      const r = await runCommand(reportCommand, ['--run', run.runId.slice(0, 8), '--db', run.dbPath, '-o', file, '--no-progress']);
      expect(r.code, r.stderr).toBe(0);
    };
    // One kit contract (shared/recordedRun.ts AgentReplayOptions): any agent's replay takes the same options.
    await { codex: replayCodex, claude: replayClaude, gemini: replayGemini }[agent](name, { afterJourney });
    const page = await open(file);
    const steps = await rows(page, 'timeline-steps');
    const m = journey.merged;
    expect(steps.length).toBe(m.reduce((n, s) => n + s.rejections.length + s.approvals.length + s.interruptions.length + s.skipped.length + s.unknown.length, 0));
    const decided = m.flatMap((s) => [
      ...s.rejections.map((r) => ['rejection', r.trigger, r.decided_by, r.reason] as const),
      ...s.approvals.map((a) => ['approval', a.trigger, a.decided_by, null] as const),
    ]);
    expect(decided.length, 'decisions in the replay').toBeGreaterThan(0);
    // Columns: decision, time, tool, command, key, decided by, prompt, reason, …
    for (const [type, trigger, decidedBy, reason] of decided) {
      const shown = steps.filter((row) => row[0] === type && row[4] === (trigger === null ? '–' : KEYS[trigger]) && row[5] === (decidedBy ?? '–'));
      expect(shown.map((row) => row[7]), `${type} by ${trigger}`).toContain(reason ?? '–');
    }
    // The session's folder and file, written once each in the page's list of folders, read back whole.
    const intro = (await page.textContent('#timeline .intro')) ?? '';
    expect(m.some((s) => intro.includes(s.session.files[0]!) && (s.session.cwd === null || intro.includes(s.session.cwd))), intro).toBe(true);
    // Every prompt with the options it offered, in order, the chosen one marked, as merge carries them.
    const prompted = m.flatMap((s) => [
      ...s.rejections.map((r) => ['rejection', r.prompt] as const),
      ...s.approvals.map((a) => ['approval', a.prompt] as const),
      ...s.interruptions.map((i) => ['interruption', i.prompt] as const),
    ]);
    const expectedPrompts = prompted.flatMap(([type, p]) => (p === null ? [] : [{ type, title: p.title, options: p.options.map((o) => ({ label: o.label, chosen: o.chosen })) }]));
    expect(expectedPrompts.length, 'prompts in the replay').toBeGreaterThan(0);
    expect(expectedPrompts.some((p) => p.options.some((o) => o.chosen)), 'a chosen option in the replay').toBe(true);
    const shownPrompts = await page.$$eval('#timeline-steps tbody tr', (trs) =>
      trs.flatMap((tr) => {
        const title = tr.querySelector('.prompt-title');
        if (title === null) return [];
        const options = [...tr.querySelectorAll('ol.options li')].map((li) => ({
          label: li.querySelector('.option-label')?.textContent ?? '',
          chosen: li.classList.contains('chosen') && (li.textContent ?? '').endsWith(' (chosen)'),
        }));
        return [{ type: (tr.children[0]?.textContent ?? '').trim(), title: title.textContent ?? '', options }];
      }),
    );
    const byText = (a: object, b: object) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    expect(shownPrompts.sort(byText)).toEqual(expectedPrompts.sort(byText));
    // Keyboard: back to the list, then Enter on a session opens its timeline again with focus on it.
    await page.click('#timeline button:text("Back to the sessions")');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('sessions-h');
    await page.focus('#session-list tbody button');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('timeline-h');
    await page.close();
    expect(incidents).toEqual([]);
  }, 180_000);

  it('renders the hostile corpus as text: no dialog, navigation, request or script', async () => {
    const hostile = `${HOSTILE} ${HOSTILE_HTML}`;
    const files = ['05-bash-reject-with-reason.jsonl', '07-bash-running-Esc.jsonl', '15-edit-reject-Esc.jsonl'].map((name) => {
      const out = join(dir, `hostile-${name}`);
      const lines = readFileSync(join(REPO_ROOT, 'test/fixtures/logs/claude', name), 'utf8').split('\n').filter((l) => l !== '');
      writeFileSync(out, lines.map((l) => JSON.stringify(plant(JSON.parse(l), hostile))).join('\n') + '\n');
      return out;
    });
    const file = await report(files);
    const page = await open(file);
    await page.click('#session-list tbody button');
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('onerror=alert(2)');
    expect(await page.$$eval('img, iframe, a[href]', (els) => els.length)).toBe(0);
    expect(await page.$$eval('script', (els) => els.length)).toBe(3);
    await page.close();
    expect(incidents).toEqual([]);
  }, 120_000);
});

/** Adds `text` to every command, path, folder, reason and output a Claude transcript holds. */
function plant(value: unknown, text: string, key = ''): unknown {
  if (typeof value === 'string') return ['command', 'file_path', 'cwd', 'content', 'text', 'old_string', 'new_string'].includes(key) ? `${value} ${text}` : value;
  if (Array.isArray(value)) return value.map((v) => plant(v, text, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plant(v, text, k)]));
  return value;
}

/// <reference lib="dom" />
// Core Web Vitals of the sportsbook app as a player on a mid-range phone meets them: headless Chromium with the
// CPU slowed 4x and Chrome DevTools' "Slow 4G" network, measured by Google's web-vitals library in the page
// (its attribution build, which also names the element of the largest paint).
//   - LCP: the largest content of the first screen (home, launched with a token, pt-BR), from navigation;
//   - CLS: every layout shift from the load through a live update (new odds and a new score shown by the poll);
//   - INP: the slowest interaction, here adding a selection to the slip.
// Beside them, Lighthouse's performance audit of home on its mobile profile (`measureLighthouse`, the median of
// LIGHTHOUSE_RUNS): the performance score, Total Blocking Time and main-thread work, what a slow main thread costs.
// `node scripts/build.ts --vitals` prints them beside the bundle budget and fails over budget; the test suite's
// build step runs it (on an otherwise idle machine, before the tests start).
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type * as WebVitals from 'web-vitals/attribution';
import { CHROMIUM } from './helpers/browser.ts';
import type { Stack } from './helpers/stack.ts';

/** The "good" thresholds of Core Web Vitals (web.dev), the quality bar. */
const VITALS_BUDGET = { lcpMs: 2_500, cls: 0.1, inpMs: 200 } as const;

/** Chrome DevTools' "Slow 4G" preset (Lighthouse's mobile profile as DevTools applies it) and a 4x slower CPU. */
export const PHONE_PROFILE = {
  viewport: { width: 390, height: 844 },
  cpuSlowdown: 4,
  latencyMs: 562.5,
  downloadBytesPerSecond: (1.6 * 1_000_000 * 0.9) / 8,
  uploadBytesPerSecond: (750 * 1_000 * 0.9) / 8,
} as const;

export interface Vitals {
  lcpMs: number;
  /** what the largest contentful paint was (web-vitals' selector), to know what to make faster */
  lcpElement: string;
  cls: number;
  inpMs: number;
}

const WEB_VITALS = join(
  import.meta.dirname,
  '..',
  'node_modules',
  'web-vitals',
  'dist',
  'web-vitals.attribution.iife.js',
);

declare global {
  interface Window {
    webVitals: typeof WebVitals;
    vitals: { lcpMs?: number; lcpElement?: string; cls?: number; inpMs?: number };
  }
}

/**
 * Loads web-vitals into every document of the page before the app's own scripts, reporting every change (not only
 * when the page is hidden) into `window.vitals`.
 */
export async function observeVitals(page: Page): Promise<void> {
  // an init script runs in a function of its own: the library's `var webVitals` is made global by hand
  await page.addInitScript({ content: `${readFileSync(WEB_VITALS, 'utf8')};window.webVitals = webVitals;` });
  await page.addInitScript(() => {
    window.vitals = {};
    const all = { reportAllChanges: true };
    window.webVitals.onLCP((metric) => {
      window.vitals.lcpMs = metric.value;
      window.vitals.lcpElement = metric.attribution.target ?? '';
    }, all);
    window.webVitals.onCLS((metric) => (window.vitals.cls = metric.value), all);
    window.webVitals.onINP((metric) => (window.vitals.inpMs = metric.value), { ...all, durationThreshold: 0 });
  });
}

/** What web-vitals has reported so far; a metric not reported yet is 0 (no shift, no interaction). */
export async function readVitals(page: Page): Promise<Vitals> {
  const seen = await page.evaluate(() => window.vitals);
  return { lcpMs: seen.lcpMs ?? 0, lcpElement: seen.lcpElement ?? '', cls: seen.cls ?? 0, inpMs: seen.inpMs ?? 0 };
}

/** Slows the page's CPU and network to the phone profile (Chromium's DevTools protocol). */
async function throttle(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  await session.send('Emulation.setCPUThrottlingRate', { rate: PHONE_PROFILE.cpuSlowdown });
  await session.send('Network.enable');
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE_PROFILE.latencyMs,
    downloadThroughput: PHONE_PROFILE.downloadBytesPerSecond,
    uploadThroughput: PHONE_PROFILE.uploadBytesPerSecond,
  });
}

/**
 * The player's first minute on the phone profile: launch into home (LCP), the live event's new odds and score
 * arriving through the page's poll (CLS), then adding one of its selections to the slip (INP).
 */
export async function measureVitals(browser: Browser, stack: Stack): Promise<Vitals> {
  // the first live event: the top row of home's "Live now", the rows a player is looking at
  const live = await stack.t.request('GET', '/api/v1/catalog/live');
  const event = (live.body as { events: LiveEvent[] }).events[0];
  if (!event) throw new Error('vitals: the catalog has no live event to update');
  const selection = event.mainMarket.selections[0]!;
  const context = await browser.newContext({ viewport: PHONE_PROFILE.viewport, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  try {
    await observeVitals(page);
    await throttle(page);
    const launch = await stack.launchToken(`vitals-${Date.now()}`, { balance: 100_000 });
    await page.goto(stack.appUrl({ launch, locale: 'pt-BR' }));
    const odds = page.locator(`.odds[data-selection="${selection.id}"]`);
    await odds.waitFor({ timeout: 30_000 });
    // not 'networkidle': the change stream stays open while the page is shown
    await page.waitForLoadState('load');
    await page.waitForTimeout(500);

    await stack.setOdds(selection.id, (Number(selection.odds) + 0.25).toFixed(2));
    await stack.t.request('PATCH', `/api/v1/admin/trading/events/${event.id}`, {
      token: stack.book.trader,
      body: { score: { home: event.score.home + 1, away: event.score.away } },
    });
    await page.locator(`.odds.up[data-selection="${selection.id}"]`).waitFor({ timeout: 30_000 });

    await odds.click();
    await page.locator(`.odds.selected[data-selection="${selection.id}"]`).waitFor();
    // web-vitals reports an interaction once the frame after it is painted
    await page.waitForFunction(() => window.vitals.inpMs !== undefined, undefined, { timeout: 10_000 });
    return await readVitals(page);
  } finally {
    await context.close();
  }
}

interface LiveEvent {
  id: string;
  score: { home: number; away: number };
  mainMarket: { selections: Array<{ id: string; odds: string }> };
}

/** The figures and their budgets, on one line; `over` names every metric above its budget. */
export function describeVitals(vitals: Vitals): { line: string; over: string[] } {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const over = [
    vitals.lcpMs > VITALS_BUDGET.lcpMs ? 'LCP' : '',
    vitals.cls > VITALS_BUDGET.cls ? 'CLS' : '',
    vitals.inpMs > VITALS_BUDGET.inpMs ? 'INP' : '',
  ].filter(Boolean);
  const line =
    `LCP ${seconds(vitals.lcpMs)} (${vitals.lcpElement || 'element not named'}; budget ${seconds(VITALS_BUDGET.lcpMs)}), ` +
    `CLS ${vitals.cls.toFixed(3)} (budget ${VITALS_BUDGET.cls}), ` +
    `INP ${Math.round(vitals.inpMs)} ms (budget ${VITALS_BUDGET.inpMs} ms)`;
  return { line, over };
}

/**
 * How many Lighthouse runs the build's figures are the median of: 3, as Lighthouse's own guidance for a stable
 * figure; each run loads home once, about 10 to 20 s here.
 */
export const LIGHTHOUSE_RUNS = 3;

/**
 * Lighthouse's bar for the app (issue 37, item 21): its performance score and Total Blocking Time, which fail the
 * build; main-thread work is the aim, reported.
 */
const LIGHTHOUSE_BUDGET = { performance: 90, tbtMs: 200, mainThreadMs: 3_000 } as const;

/**
 * The phone Lighthouse's mobile profile means, as its benchmark index: its default 4x CPU slowdown makes a typical
 * high-end desktop (index 1,500 to 2,000, docs/throttling.md in Lighthouse's repository) a mid-tier phone, about
 * 1,750 / 4. This machine's speed drifts threefold from hour to hour, so a fixed 4x measured a phone three times
 * slower in a slow hour. As Lighthouse's own guidance says for a host weaker than a high-end desktop, the slowdown is
 * lowered to the machine's index of the moment (never below 1x); on a faster host it stays Lighthouse's 4x, as
 * PageSpeed Insights runs it: the index of one moment is noisy (2,456 and then 3,625 a few minutes apart here), and
 * a slowdown raised with it measured a phone slower than the profile's.
 */
const MID_TIER_PHONE_INDEX = 440;

export interface LighthouseFigures {
  /** the performance category's score, 0 to 100 */
  performance: number;
  tbtMs: number;
  /** all main-thread work of the load (mainthread-work-breakdown), and the part of it that was rendering */
  mainThreadMs: number;
  renderingMs: number;
  lcpMs: number;
  /** the runs of which these are the median, each run's performance score */
  runs: number[];
  /** this machine's benchmark index before the runs, and the CPU slowdown that makes it the mid-tier phone */
  benchmarkIndex: number;
  cpuSlowdown: number;
}

/**
 * Lighthouse's performance audit of home (launched with a token, pt-BR) on its mobile profile (a Moto G Power's
 * screen and Slow 4G, simulated; the CPU slowed to a mid-tier phone's, calibrated to this machine: see
 * MID_TIER_PHONE_INDEX), `runs` times in the Chromium playwright launched (through its DevTools port, never a browser
 * of Lighthouse's own); the median of each figure.
 */
export async function measureLighthouse(stack: Stack, runs: number): Promise<LighthouseFigures> {
  const { default: lighthouse } = await import('lighthouse');
  const port = await freePort();
  // as e2e/helpers/browser.ts launches it, with the DevTools port Lighthouse connects to
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      `--remote-debugging-port=${port}`,
    ],
  });
  try {
    const benchmarkIndex = await measureBenchmarkIndex(browser);
    const cpuSlowdown = phoneSlowdown(benchmarkIndex);
    const results: Measured[] = [];
    for (let run = 0; run < runs; run++) {
      const launch = await stack.launchToken(`lighthouse-${Date.now()}-${run}`, { balance: 100_000 });
      const result = await lighthouse(
        stack.appUrl({ launch, locale: 'pt-BR' }),
        { port, logLevel: 'error', onlyCategories: ['performance'] },
        { extends: 'lighthouse:default', settings: { throttling: { cpuSlowdownMultiplier: cpuSlowdown } } },
      );
      const lhr = result?.lhr;
      if (!lhr) throw new Error('lighthouse: no result');
      if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const breakdown = (lhr.audits['mainthread-work-breakdown']?.details ?? { items: [] }) as {
        items?: Array<{ group: string; duration: number }>;
      };
      const rendering = (breakdown.items ?? [])
        .filter((item) => item.group === 'styleLayout' || item.group === 'paintCompositeRender')
        .reduce((sum, item) => sum + item.duration, 0);
      results.push({
        performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        tbtMs: audit('total-blocking-time'),
        mainThreadMs: audit('mainthread-work-breakdown'),
        renderingMs: rendering,
        lcpMs: audit('largest-contentful-paint'),
      });
    }
    const median = (pick: (figures: Measured) => number) => {
      const sorted = results.map(pick).sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)]!;
    };
    return {
      performance: median((r) => r.performance),
      tbtMs: median((r) => r.tbtMs),
      mainThreadMs: median((r) => r.mainThreadMs),
      renderingMs: median((r) => r.renderingMs),
      lcpMs: median((r) => r.lcpMs),
      runs: results.map((r) => r.performance),
      benchmarkIndex,
      cpuSlowdown,
    };
  } finally {
    await browser.close();
  }
}

type Measured = Omit<LighthouseFigures, 'runs' | 'benchmarkIndex' | 'cpuSlowdown'>;

/** Lighthouse's own CPU slowdown on its mobile profile, for a high-end desktop. */
const LIGHTHOUSE_SLOWDOWN = 4;

/**
 * How much slower the CPU is made to be the mid-tier phone on a machine of this benchmark index: Lighthouse's 4x,
 * lowered on a weaker machine, never below 1x.
 */
export function phoneSlowdown(benchmarkIndex: number): number {
  const calibrated = Math.round((benchmarkIndex / MID_TIER_PHONE_INDEX) * 10) / 10;
  return Math.min(LIGHTHOUSE_SLOWDOWN, Math.max(1, calibrated));
}

/** Lighthouse's own benchmark of the machine (the index its reports show as "CPU/Memory Power"), in a blank page. */
async function measureBenchmarkIndex(browser: Browser): Promise<number> {
  const { pageFunctions } = await import('lighthouse/core/lib/page-functions.js');
  const page = await browser.newPage();
  try {
    // once to warm the engine up, as Lighthouse's own calibration does, then the figure
    await page.evaluate(pageFunctions.computeBenchmarkIndex);
    return Math.round(await page.evaluate(pageFunctions.computeBenchmarkIndex));
  } finally {
    await page.close();
  }
}

/** A loopback port nobody listens on now, for Chromium's DevTools endpoint. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Lighthouse's figures and their budget, on one line; `over` says what is over it and where to look. */
export function describeLighthouse(figures: LighthouseFigures): { line: string; over: string[] } {
  const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
  const over = [
    figures.performance < LIGHTHOUSE_BUDGET.performance
      ? `performance ${figures.performance} < ${LIGHTHOUSE_BUDGET.performance}`
      : '',
    figures.tbtMs > LIGHTHOUSE_BUDGET.tbtMs
      ? `Total Blocking Time ${ms(figures.tbtMs)} > ${LIGHTHOUSE_BUDGET.tbtMs} ms`
      : '',
  ].filter(Boolean);
  const line =
    `performance ${figures.performance} (budget ${LIGHTHOUSE_BUDGET.performance}; runs ${figures.runs.join(', ')}), ` +
    `TBT ${ms(figures.tbtMs)} (budget ${LIGHTHOUSE_BUDGET.tbtMs} ms), ` +
    `main-thread work ${ms(figures.mainThreadMs)} of which rendering ${ms(figures.renderingMs)} ` +
    `(aim under ${ms(LIGHTHOUSE_BUDGET.mainThreadMs)}), LCP ${(figures.lcpMs / 1000).toFixed(2)} s; ` +
    `CPU ${figures.cpuSlowdown}x slower (this machine's benchmark index ${figures.benchmarkIndex})`;
  return { line, over };
}

// Every page of the sportsbook app in every language we ship, at a phone's and a desktop's width in light and at a
// phone's in dark:
// axe-core finds nothing serious (WCAG 2.2 AA), every number on screen and in screen-reader names is written the
// locale's way, and a screenshot of each is kept in e2e/screenshots/pages/ for a person to look at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { LOCALES, type Locale } from '../sdk/protocol.ts';
import { newRequestId, playerWithBalance } from '../test/helpers/sportsbook.ts';
import { seriousViolations } from './helpers/axe.ts';
import { SCREENSHOTS } from './helpers/browser.ts';
import { stackAndBrowser } from './helpers/fixture.ts';

const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
/**
 * Each mode and the widths it is checked at. Dark is a theme (colours, so contrast) over the same layout: it is
 * checked at the phone's width, where most players see it; the layout of each width is checked in light.
 */
const MODES = {
  light: { params: {}, widths: ['phone', 'desktop'] },
  dark: { params: { 'theme.mode': 'dark' }, widths: ['phone'] },
} as const satisfies Record<string, { params: Record<string, string>; widths: ReadonlyArray<keyof typeof WIDTHS> }>;
const SHOTS = join(SCREENSHOTS, 'pages');

/**
 * Decimal numbers written another locale's way: in en a decimal comma ("2,15"), in pt-BR and es a decimal point
 * ("2.15", "221.5"); grouping ("1.000" in pt-BR) has three digits after the separator and is not matched.
 */
const FOREIGN_DECIMAL: Record<Locale, RegExp> = {
  en: /(?<![\w.,])\d+,\d{1,2}(?![\d])/g,
  'pt-BR': /(?<![\w.,])\d+\.\d{1,2}(?![\d])/g,
  es: /(?<![\w.,])\d+\.\d{1,2}(?![\d])/g,
};

let liveEventId: string;
let externalPlayer: string;

// a live event for the event page, and a player with an open single and an open accumulator, for My Bets
const { stack, browser, skip } = stackAndBrowser({}, async (started) => {
  mkdirSync(SHOTS, { recursive: true });
  const live = await started.t.request('GET', '/api/v1/catalog/live');
  liveEventId = (live.body.events as Array<{ id: string; home: string }>)[0]!.id;
  externalPlayer = 'pages-player';
  const token = await playerWithBalance(started.t, started.book, started.wallet, externalPlayer, 100_000);
  const [first, second] = started.book.events;
  for (const legs of [[first!.home], [first!.draw, second!.away]]) {
    const odds = { [first!.home]: '2.10', [first!.draw]: '3.25', [second!.away]: '3.60' };
    const placed = await started.t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 1_000, legs: legs.map((id) => ({ selectionId: id, odds: odds[id] })) },
    });
    assert.equal(placed.status, 201, placed.text);
  }
});

/** Every decimal on the page written another locale's way, in the text shown and in the names read out. */
async function foreignNumbers(page: Page, locale: Locale): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const named = [...document.querySelectorAll('[aria-label]')].map((node) => node.getAttribute('aria-label') ?? '');
    return [document.body.innerText, document.title, ...named];
  });
  return texts.flatMap((text) => text.match(FOREIGN_DECIMAL[locale]) ?? []);
}

const PAGES: Array<{ name: string; path: () => string; ready: (page: Page) => Promise<unknown>; login?: true }> = [
  { name: 'home', path: () => '/', ready: (page) => page.locator('.event-row').first().waitFor() },
  {
    name: 'search',
    path: () => '/',
    ready: async (page) => {
      await page.getByRole('searchbox').fill('flamengo');
      await page.locator('.search-results .event-row').first().waitFor();
    },
  },
  { name: 'live', path: () => '/live', ready: (page) => page.locator('.live-state').first().waitFor() },
  { name: 'sport', path: () => '/sport/basketball', ready: (page) => page.locator('.event-row').first().waitFor() },
  {
    name: 'event',
    path: () => `/event/${liveEventId}`,
    ready: (page) => page.locator('.market-group').first().waitFor(),
  },
  {
    name: 'my-bets',
    path: () => '/my-bets',
    ready: (page) => page.locator('.bet-card').first().waitFor(),
    login: true,
  },
];

describe('every page, in every language, width and mode', { skip }, () => {
  for (const locale of LOCALES) {
    for (const [mode, { params: themeParams, widths }] of Object.entries(MODES)) {
      it(`${locale}, ${mode}: no serious accessibility violation and every number the locale's way`, async () => {
        const problems: string[] = [];
        for (const width of widths) {
          const viewport = WIDTHS[width];
          const context = await browser.newContext({ viewport, locale });
          for (const shown of PAGES) {
            const page = await context.newPage();
            page.on('pageerror', (error) => problems.push(`${shown.name}: ${error.message}`));
            const launch = shown.login ? await stack.launchToken(externalPlayer) : undefined;
            await page.goto(stack.appUrl({ locale, path: shown.path(), launch, ...themeParams }));
            await shown.ready(page);
            await page.screenshot({
              path: join(SHOTS, `${shown.name}-${locale}-${mode}-${width}.png`),
              animations: 'disabled',
            });
            for (const violation of await seriousViolations(page))
              problems.push(`${shown.name} ${width}: ${violation}`);
            for (const number of await foreignNumbers(page, locale)) {
              problems.push(`${shown.name} ${width}: "${number}" is not written the ${locale} way`);
            }
            await page.close();
          }
          await context.close();
        }
        assert.deepEqual(problems, []);
      });
    }
  }
});

describe('the live list at a phone width', { skip }, () => {
  it("shows each row's competition whole beside or under its live state (pt-BR, the NBB)", async () => {
    const context = await browser.newContext({ viewport: WIDTHS.phone, locale: 'pt-BR' });
    try {
      const page = await context.newPage();
      await page.goto(stack.appUrl({ locale: 'pt-BR', path: '/' }));
      // the demo catalog's NBB match is live: a basketball row, with its quarter and clock beside the badge
      await page.locator('.event-row .event-competition', { hasText: 'NBB' }).first().waitFor();
      const cut = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.event-row .event-competition')]
          .filter((name) => name.scrollWidth > name.clientWidth || name.clientWidth === 0)
          .map((name) => `"${name.textContent}" shown ${name.clientWidth} of ${name.scrollWidth} px`),
      );
      assert.deepEqual(cut, []);
      const nbb = page.locator('.event-row .event-competition', { hasText: 'NBB' }).first();
      // its name (the pause for screen readers after it is visually hidden), within the row's width
      assert.equal(await nbb.evaluate((name) => name.firstChild?.textContent), 'NBB');
      const [name, row] = await nbb.evaluate((element) =>
        [element, element.closest('.event-row')!].map((box) => box.getBoundingClientRect().toJSON() as DOMRect),
      );
      assert.ok(name!.width > 0 && name!.right <= row!.right, JSON.stringify({ name, row }));
    } finally {
      await context.close();
    }
  });
});

describe("a match's page at a phone width", { skip }, () => {
  it("shows each selection's name whole on a match's page, on a second line when it needs one (es, pt-BR)", async () => {
    for (const locale of ['es', 'pt-BR'] as const) {
      const context = await browser.newContext({ viewport: WIDTHS.phone, locale });
      try {
        const page = await context.newPage();
        await page.goto(stack.appUrl({ locale, path: `/event/${liveEventId}` }));
        await page.locator('.market-group .odds-label').first().waitFor();
        const cut = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('.market-group .odds-label')]
            .filter((name) => name.scrollWidth > name.clientWidth || name.scrollHeight > name.clientHeight + 1)
            .map(
              (name) =>
                `"${name.textContent}" ${name.clientWidth}x${name.clientHeight} of ${name.scrollWidth}x${name.scrollHeight}`,
            ),
        );
        assert.deepEqual(cut, [], locale);
      } finally {
        await context.close();
      }
    }
  });
});

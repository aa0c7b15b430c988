// The sportsbook app players use (web/), in headless Chromium against the real service and the reference wallet:
// launch, catalog pages, the bet slip, My Bets and cash-out, layouts, locales, the host protocol and the budgets.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { playerWithBalance } from '../test/helpers/sportsbook.ts';
import { seriousViolations } from './helpers/axe.ts';
import { SCREENSHOTS } from './helpers/browser.ts';
import { stackAndBrowser } from './helpers/fixture.ts';
import type { BookEvent } from './helpers/stack.ts';

const ROOT = join(import.meta.dirname, '..');
const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/**
 * The budget for app JS on first load. Its other budget, the first sportsbook content, is a time: it is
 * measured on a throttled phone by the build's Core Web Vitals step (e2e/vitals.ts), alone on the machine, never here
 * beside other test files.
 */
const JS_BUDGET_GZIP = 60 * 1024;

let host: Server;
let hostOrigin: string;
let hostPageFor = '';
let players = 0;

// with a casino page on its own origin, framing the sportsbook
const { stack, browser, skip } = stackAndBrowser({}, async (started) => {
  host = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(hostPageFor);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  await started.setEmbedOrigins([hostOrigin]);
});
after(() => {
  host?.close();
});

if (!skip && !existsSync(join(ROOT, 'web', 'dist', 'index.html'))) {
  // the whole build, before the service starts: the compressed forms the budget test measures are written by it, not
  // by vite
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.ts')], { cwd: ROOT, stdio: 'ignore' });
}

const player = () => `e2e-player-${(players += 1)}`;

async function open(
  params: Record<string, string | undefined>,
  viewport: { width: number; height: number } = MOBILE,
): Promise<Page> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  (page as Page & { problems?: string[] }).problems = problems;
  await page.goto(stack.appUrl(params));
  return page;
}

async function loggedIn(balance: number, params: Record<string, string> = {}, viewport = MOBILE) {
  const id = player();
  const launch = await stack.launchToken(id, { balance });
  const page = await open({ launch, locale: 'en', ...params }, viewport);
  await page.locator('.balance-amount').waitFor();
  return { page, id };
}

const odds = (page: Page, selectionId: string) => page.locator(`[data-selection="${selectionId}"]`).first();

async function openSlip(page: Page): Promise<void> {
  if ((page.viewportSize()?.width ?? 0) >= 900) return;
  if (await page.getByRole('dialog').isVisible()) return;
  await page.getByRole('button', { name: /^Bet slip/ }).click();
  await page.getByRole('dialog').waitFor();
}

describe('the sportsbook app', { skip }, () => {
  it('launches: the token leaves the address at once, the session is kept in sessionStorage only', async () => {
    const { page } = await loggedIn(100_000);
    assert.doesNotMatch(page.url(), /launch=|token=/);
    assert.equal(await page.locator('.balance-amount').textContent(), 'R$1,000.00');
    const stored = await page.evaluate(() => ({
      session: Object.keys(sessionStorage),
      local: Object.keys(localStorage),
      cookies: document.cookie,
    }));
    assert.deepEqual(
      stored.session.filter((key) => key.startsWith('bookmaker.session.')),
      [`bookmaker.session.${stack.tenantId}`],
    );
    assert.deepEqual(stored.local, []);
    assert.equal(stored.cookies, '');
    await page.close();

    // deprecated: a session token in the address still logs in, and leaves the address as well
    const token = await playerWithBalance(stack.t, stack.book, stack.wallet, player(), 2_500);
    const legacy = await open({ token, locale: 'en' });
    await legacy.locator('.balance-amount', { hasText: 'R$25.00' }).waitFor();
    assert.doesNotMatch(legacy.url(), /token=/);
    await legacy.close();
  });

  it('renders home, live, sport, competition and event pages, and polls the odds with a visible change', async () => {
    const page = await open({ locale: 'en' }, MOBILE);
    await page.getByRole('heading', { name: 'Live now' }).waitFor();
    await page.getByRole('heading', { name: 'Starting soon' }).waitFor();
    assert.equal(await page.title(), 'Sportsbook · Sol Casino');
    await page.screenshot({ path: join(SCREENSHOTS, 'app-mobile-home.png'), animations: 'disabled' });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Live' }).click();
    await page.getByRole('heading', { level: 1, name: 'Live betting' }).waitFor();
    // the heading comes at once, the events when the catalog answers: wait for them, do not count a loading page
    await page.locator('.event-row .badge.live').first().waitFor();
    await page
      .getByRole('navigation', { name: 'Live' })
      .getByRole('button', { name: /Basketball/ })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Live · Basketball' }).waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Home' }).click();
    await page
      .getByRole('navigation', { name: 'Sports' })
      .getByRole('button', { name: /Football/ })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Football' }).waitFor();
    await page.getByRole('button', { name: /Premier League/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Premier League' }).waitFor();
    await page.locator('.event-link').first().click();
    for (const group of ['Match result', 'Both teams to score', 'Correct score']) {
      await page.getByRole('heading', { level: 2, name: group }).waitFor();
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'app-mobile-event.png'), animations: 'disabled' });

    // a price that moves while the page is open flashes (polled every 5 s)
    const event = await stack.newEvent('Internacional', 'Fluminense');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.goto(stack.appUrl({ locale: 'en', path: `/event/${event.id}` }));
    await odds(page, event.home).waitFor();
    assert.match((await odds(page, event.home).textContent()) ?? '', /2\.10/);
    await stack.setOdds(event.home, '2.40');
    await page.locator(`[data-selection="${event.home}"].up`).waitFor({ timeout: 10_000 });
    assert.match((await odds(page, event.home).textContent()) ?? '', /2\.40/);
    assert.deepEqual((page as Page & { problems?: string[] }).problems, []);
    await page.close();
  });

  it('places a single and an accumulator: receipt, balance, wallet', async () => {
    const { page, id } = await loggedIn(100_000, {}, DESKTOP);
    const first = await stack.newEvent('Corinthians', 'São Paulo');
    const second = await stack.newEvent('Athletico-PR', 'Coritiba');
    const third = await stack.newEvent('Goiás', 'Vila Nova');
    await page.goto(stack.appUrl({ locale: 'en', path: `/competition/${await competitionOf(first.id)}` }));
    await odds(page, first.home).click();
    const slip = page.getByRole('complementary', { name: 'Bet slip' });
    await slip.getByLabel('Stake for Corinthians').fill('10');
    assert.match((await slip.locator('.payout').textContent()) ?? '', /R\$21\.00/);
    await slip.getByRole('button', { name: /Place bet/ }).click();
    await slip.getByText('Bet placed').waitFor();
    await page.locator('.balance-amount', { hasText: 'R$990.00' }).waitFor();
    assert.equal(await stack.wallet.balanceOf(id), 99_000);
    await slip.getByRole('button', { name: 'Done' }).click();

    await odds(page, second.home).click();
    await odds(page, third.away).click();
    await slip.locator('.slip-acca', { hasText: 'Accumulator (2)' }).waitFor();
    await slip.getByLabel('Stake', { exact: true }).fill('5');
    // 2.10 × 3.60 = 7.56
    assert.match((await slip.locator('.payout').textContent()) ?? '', /R\$37\.80/);
    await slip.getByRole('button', { name: /Place bet/ }).click();
    await slip.getByText('Bet placed').waitFor();
    assert.ok(await slip.locator('.receipt-kind', { hasText: 'Accumulator (2)' }).isVisible());
    await page.locator('.balance-amount', { hasText: 'R$985.00' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'app-desktop-receipt.png'), animations: 'disabled' });
    assert.equal(await stack.wallet.balanceOf(id), 98_500);
    await page.close();
  });

  it('asks to accept changed odds, as they are pushed to the page', async () => {
    const { page } = await loggedIn(100_000);
    const event = await stack.newEvent('América-MG', 'Atlético-GO');
    await page.goto(stack.appUrl({ locale: 'en', path: `/event/${event.id}` }));
    await odds(page, event.draw).click();
    await openSlip(page);
    const slip = page.getByRole('dialog');
    await slip.getByLabel('Stake for Draw').fill('10');

    // while the slip is open: the poll shows old → new and asks
    await stack.setOdds(event.draw, '3.00');
    await slip.getByRole('button', { name: 'Accept odds changes' }).waitFor({ timeout: 10_000 });
    assert.match((await slip.locator('.odds-change').textContent()) ?? '', /3\.25.*3\.00/);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-mobile-odds-changed.png'), animations: 'disabled' });
    await slip.getByRole('button', { name: 'Accept odds changes' }).click();

    // another move: pushed to the open page, the slip asks again before the player can place
    await stack.setOdds(event.draw, '2.90');
    await slip.getByRole('button', { name: 'Accept odds changes' }).waitFor({ timeout: 10_000 });
    await slip.getByRole('button', { name: 'Accept odds changes' }).click();
    await slip.getByRole('button', { name: /Place bet/ }).click();
    await slip.getByText('Bet placed').waitFor();
    assert.match((await slip.locator('.receipt-legs').textContent()) ?? '', /2\.90/);
    await page.close();
  });

  it("an in-play bet says it waits its sport's delay, then shows its receipt", async () => {
    const trade = (method: string, path: string, body: unknown) =>
      stack.t.request(method, `/api/v1/admin/trading${path}`, { token: stack.book.trader, body });
    const { page } = await loggedIn(100_000);
    const event = await stack.newEvent('Ceará', 'Fortaleza');
    assert.equal((await trade('PATCH', `/events/${event.id}`, { status: 'live' })).status, 200);
    assert.equal((await trade('PATCH', '/sports/soccer', { liveDelaySeconds: 2 })).status, 200);
    try {
      await page.goto(stack.appUrl({ locale: 'en', path: `/event/${event.id}` }));
      await odds(page, event.home).click();
      await openSlip(page);
      const slip = page.getByRole('dialog');
      await slip.getByLabel('Stake for Ceará').fill('10');
      await slip.getByRole('button', { name: /Place bet/ }).click();
      await slip.getByText('In play, bets are checked for 2 seconds before they are accepted…').waitFor();
      await slip.getByText('Bet placed').waitFor();
    } finally {
      await trade('PATCH', '/sports/soccer', { liveDelaySeconds: 0 });
    }
    await page.close();
  });

  it('explains insufficient funds, wallet failures and suspended markets, and offers Deposit', async () => {
    const { page } = await loggedIn(500);
    const event = await stack.newEvent('Sport', 'Náutico');
    await page.goto(stack.appUrl({ locale: 'en', path: `/event/${event.id}` }));
    await odds(page, event.away).click();
    await openSlip(page);
    const slip = page.getByRole('dialog');
    await slip.getByLabel('Stake for Náutico').fill('10');
    await slip.getByRole('button', { name: /Place bet/ }).click();
    const alert = slip.getByRole('alert');
    await alert.getByText('Not enough balance for this stake').waitFor();
    assert.ok(await alert.getByRole('button', { name: 'Deposit' }).isVisible());
    await page.screenshot({ path: join(SCREENSHOTS, 'app-mobile-insufficient-funds.png'), animations: 'disabled' });

    stack.wallet.fault({ mode: 'status_503', endpoint: 'debit' });
    await slip.getByLabel('Stake for Náutico').fill('2');
    await slip.getByRole('button', { name: /Place bet/ }).click();
    await slip.getByRole('alert').getByText('Your casino balance did not answer').waitFor();

    await stack.setMarketStatus(event.marketId, 'suspended');
    await slip.getByText('Suspended').waitFor({ timeout: 10_000 });
    await slip.getByRole('button', { name: /Place bet/ }).click();
    await slip.getByRole('alert').getByText('This market is suspended').waitFor();
    await page.close();
  });

  it('shows no balance when the wallet does not give one', async () => {
    const launch = await stack.launchToken(player(), { balance: 100_000 });
    stack.wallet.fault({ mode: 'status_503', endpoint: 'balance' });
    const page = await open({ launch, locale: 'en' });
    await page.getByRole('button', { name: 'Deposit' }).waitFor();
    await page.getByRole('heading', { name: 'Live now' }).waitFor();
    assert.equal(await page.locator('.balance').count(), 0);
    await page.close();
  });

  it('My Bets: open and settled bets, partial and full cash-out', async () => {
    const id = player();
    const token = await playerWithBalance(stack.t, stack.book, stack.wallet, id, 100_000);
    const first = await stack.newEvent('Vitória', 'Juventude');
    const second = await stack.newEvent('Ceará', 'Fortaleza');
    for (const [selectionId, odds] of [
      [first.home, '2.10'],
      [second.away, '3.60'],
    ] as const) {
      const placed = await stack.t.request('POST', '/api/v1/bets', {
        token,
        body: { requestId: `e2e-${id}-${selectionId}`, stake: 1000, legs: [{ selectionId, odds }] },
      });
      assert.equal(placed.status, 201, placed.text);
    }
    assert.equal((await stack.settle(second, 'home')).status, 200);

    const launch = await stack.launchToken(id);
    const page = await open({ launch, locale: 'en', path: '/my-bets' });
    await page.getByRole('heading', { level: 1, name: 'My bets' }).waitFor();
    const card = page.getByRole('article').filter({ hasText: 'Vitória' });
    await card.waitFor();
    assert.match((await card.textContent()) ?? '', /To return\s*R\$21\.00/);
    await card.getByRole('button', { name: /^Cash out R\$/ }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'app-mobile-mybets.png'), animations: 'disabled' });

    // partial: R$4.00 of the R$10.00 stake
    await card.getByRole('button', { name: 'Partial' }).click();
    await card.getByLabel(/Stake to cash out/).fill('4');
    await card.getByRole('button', { name: /for R\$4\.00 of your stake/ }).click();
    await card.getByRole('button', { name: /Confirm cash-out/ }).click();
    await page.locator('.toast', { hasText: 'Cashed out R$' }).waitFor();
    await page.getByText(/cashed out for R\$4\.00 of stake/).waitFor({ timeout: 10_000 });
    // the stake that still rides, of the whole, and the return on it
    const after = page.getByRole('article').filter({ hasText: 'Vitória' });
    assert.match((await after.textContent()) ?? '', /Stake left\s*R\$6\.00\s*of R\$10\.00/);
    assert.match((await after.textContent()) ?? '', /To return\s*R\$12\.60/);

    // full: the rest
    const rest = page.getByRole('article').filter({ hasText: 'Vitória' });
    await rest.getByRole('button', { name: /^Cash out R\$/ }).click();
    await rest.getByRole('button', { name: /Confirm cash-out/ }).click();
    await page.locator('.toast', { hasText: 'Cashed out R$' }).waitFor();
    await page.getByText('You have no open bets.').waitFor();

    await page.getByRole('tab', { name: 'Settled' }).click();
    const settled = page.getByRole('tabpanel');
    const lost = settled.getByRole('article').filter({ hasText: 'Fortaleza' });
    await lost.locator('.badge.status', { hasText: 'Lost' }).waitFor();
    const cashed = settled.getByRole('article').filter({ hasText: 'Vitória' });
    await cashed.locator('.badge.status', { hasText: 'Cashed out' }).waitFor();
    await page.close();
  });

  it('lays out for phones below 900 px and for desktops above', async () => {
    const { page } = await loggedIn(100_000, {}, MOBILE);
    await page.getByRole('heading', { name: 'Live now' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Home', 'Live', 'My bets']) assert.ok(await nav.getByRole('button', { name }).isVisible());
    // an empty slip is said to be empty, not "0 selections"
    assert.ok(await nav.getByRole('button', { name: 'Bet slip, empty' }).isVisible());
    assert.equal(await page.getByRole('complementary', { name: 'Bet slip' }).count(), 0);
    // a price's name says its market: the same side at two prices are two different bets
    const firstOdds = page.locator('.row-odds .odds:not([disabled])').first();
    assert.match((await firstOdds.getAttribute('aria-label')) ?? '', /, (Match result|Moneyline|Match winner)/);
    // fill: the header and the navigation stay in view while the page scrolls inside
    await page.locator('main').evaluate((main) => main.scrollTo(0, 2000));
    assert.ok(await page.locator('.topbar').isVisible());
    const navBox = await nav.boundingBox();
    assert.equal(Math.round(navBox!.y + navBox!.height), MOBILE.height);
    await page.locator('.row-odds .odds:not([disabled])').first().click();
    await openSlip(page);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-mobile-slip.png'), animations: 'disabled' });
    // the sheet is modal: Tab cycles inside it, Escape closes it and gives focus back to the slip button
    const inSheet = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
      assert.ok(await inSheet(), `focus left the sheet after ${i + 1} presses`);
    }
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.id === 'slip-toggle', undefined, { timeout: 5_000 });
    await page.close();

    const desktop = await open({ locale: 'en' }, DESKTOP);
    await desktop.getByRole('heading', { name: 'Live now' }).waitFor();
    assert.ok(await desktop.getByRole('complementary', { name: 'Bet slip' }).isVisible());
    assert.equal(await desktop.locator('.bottom-nav').count(), 0);
    assert.ok(await desktop.getByRole('navigation', { name: 'Sports' }).first().isVisible());
    await desktop.screenshot({ path: join(SCREENSHOTS, 'app-desktop-home.png'), animations: 'disabled' });
    await desktop.close();
  });

  it('speaks pt-BR (the tenant locale) and es, with amounts for the locale in the tenant currency', async () => {
    const launch = await stack.launchToken(player(), { balance: 123_456 });
    const pt = await open({ launch });
    await pt.getByRole('heading', { name: 'Ao vivo agora' }).waitFor();
    await pt.getByRole('heading', { name: 'Começando em breve' }).waitFor();
    assert.equal(await pt.evaluate(() => document.documentElement.lang), 'pt-BR');
    const ptAmount = await pt.evaluate(() =>
      new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(1234.56),
    );
    assert.equal(await pt.locator('.balance-amount').textContent(), ptAmount);
    assert.ok(await pt.getByRole('button', { name: 'Depositar' }).isVisible());
    assert.ok(
      await pt
        .getByRole('navigation', { name: 'Principal' })
        .getByRole('button', { name: 'Minhas apostas' })
        .isVisible(),
    );
    await pt.screenshot({ path: join(SCREENSHOTS, 'app-mobile-home-pt-BR.png'), animations: 'disabled' });
    await pt.close();

    const es = await open({ locale: 'es', launch: await stack.launchToken(player(), { balance: 123_456 }) });
    await es.getByRole('heading', { name: 'En vivo ahora' }).waitFor();
    await es.getByRole('heading', { name: 'Próximamente' }).waitFor();
    const esAmount = await es.evaluate(() =>
      new Intl.NumberFormat('es', { style: 'currency', currency: 'BRL' }).format(1234.56),
    );
    await es.locator('.balance-amount', { hasText: esAmount }).waitFor();
    assert.ok(await es.getByRole('button', { name: 'Depositar' }).isVisible());
    assert.equal(await es.title(), 'Apuestas deportivas · Sol Casino');
    await es.screenshot({ path: join(SCREENSHOTS, 'app-mobile-home-es.png'), animations: 'disabled' });
    await es.close();
  });

  it('stays within budget: app JS on first load, as sent compressed', async () => {
    const page = await browser.newPage({ viewport: MOBILE });
    // The app's own page, scripts and styles, with the bytes of each body as they came over the connection.
    const files: Array<Promise<{ url: string; script: boolean; encoding?: string; bytes: number }>> = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (response.url().startsWith(stack.url) && ['document', 'script', 'stylesheet'].includes(type)) {
        files.push(
          response
            .request()
            .sizes()
            .then((sizes) => ({
              url: response.url(),
              script: type === 'script',
              encoding: response.headers()['content-encoding'],
              bytes: sizes.responseBodySize,
            })),
        );
      }
    });
    await page.goto(stack.appUrl({ locale: 'en' }));
    await page.locator('.event-row').first().waitFor();
    const sent = await Promise.all(files);
    for (const file of sent) assert.match(file.encoding ?? 'none', /^(?:br|gzip)$/, `${file.url} sent compressed`);
    const scripts = sent.filter((file) => file.script);
    const total = scripts.reduce((sum, file) => sum + file.bytes, 0);
    console.log(
      `app JS on first load: ${(total / 1024).toFixed(1)} KB sent (${scripts.map((file) => file.encoding).join(', ')}) ` +
        `in ${scripts.length} file(s)`,
    );
    assert.ok(scripts.length > 0);
    assert.ok(total <= JS_BUDGET_GZIP, `${total} bytes of compressed JS`);
    await page.close();
  });

  it('talks to its host: ready, route, balance, commands queued before ready, deep links, log-in and deposit', async () => {
    const launch = await stack.launchToken(player(), { balance: 50_000 });
    const src = stack.appUrl({ launch, locale: 'en', height: 'auto', origin: hostOrigin, path: '/live' });
    hostPageFor = `<!doctype html><html><head><meta charset="utf-8"><title>Casino</title></head><body>
<iframe id="sb" title="Sportsbook" style="width:390px;height:600px;border:0" src="${src}"></iframe>
<script>
  window.events = [];
  const sb = new URL(${JSON.stringify(stack.url)}).origin;
  const frame = document.getElementById('sb');
  addEventListener('message', (event) => {
    if (event.source === frame.contentWindow && event.origin === sb) events.push(event.data);
  });
  window.send = (type, payload) => frame.contentWindow.postMessage({ source: 'bookmaker-host', v: 1, type, payload }, sb);
  // sent as soon as the document loads, likely before ready: queued by the sportsbook
  frame.addEventListener('load', () => send('navigate', { path: '/live/soccer' }), { once: true });
</script></body></html>`;
    const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
    await page.goto(`${hostOrigin}/casino`);
    const events = () => page.evaluate(() => (window as Window & { events?: any[] }).events!);
    const waitFor = async (predicate: (event: any) => boolean, what: string) => {
      for (let i = 0; i < 200; i++) {
        const found = (await events()).find(predicate);
        if (found) return found;
        await page.waitForTimeout(100);
      }
      assert.fail(`no ${what}: ${JSON.stringify(await events())}`);
    };
    const ready = await waitFor((event) => event.type === 'ready', 'ready');
    assert.deepEqual(ready, {
      source: 'bookmaker-sportsbook',
      v: 1,
      type: 'ready',
      payload: { locale: 'en', height: 'auto', path: '/live', loggedIn: true, currency: 'BRL' },
    });
    await waitFor((event) => event.type === 'balance_changed' && event.payload.balance === 50_000, 'balance');
    await waitFor((event) => event.type === 'route' && event.payload.path === '/live', 'first route');
    await waitFor((event) => event.type === 'route' && event.payload.path === '/live/soccer', 'queued navigate');
    await waitFor((event) => event.type === 'resize' && event.payload.height > 200, 'resize');
    const frame = page.frameLocator('#sb');

    await page.evaluate(() => (window as any).send('navigate', { path: '/nowhere' }));
    await waitFor((event) => event.type === 'error' && event.payload.code === 'invalid_path', 'invalid_path');
    await page.evaluate(() => (window as any).send('refresh_balance', {}));
    await page.waitForFunction(
      () => (window as any).events.filter((event: any) => event.type === 'balance_changed').length >= 2,
    );
    await frame.getByRole('button', { name: 'Deposit' }).click();
    await waitFor((event) => event.type === 'deposit_requested' && event.payload.currency === 'BRL', 'deposit');
    await page.evaluate(() => (window as any).send('set_locale', { locale: 'pt-BR' }));
    await frame.getByRole('button', { name: 'Depositar' }).waitFor();

    await page.evaluate(() => (window as any).send('logout', {}));
    await waitFor((event) => event.type === 'session_expired' && event.payload.reason === 'logout', 'logout');
    await frame.getByRole('banner').getByRole('button', { name: 'Entrar' }).click();
    await waitFor((event) => event.type === 'login_required' && event.payload.reason === 'login_button', 'login');
    await page.evaluate(() => (window as any).send('navigate', { path: '/my-bets' }));
    await waitFor((event) => event.type === 'login_required' && event.payload.reason === 'my_bets', 'my_bets');

    // a used launch token: error with the API's code, then session_expired
    await page.evaluate((token) => (window as any).send('set_launch_token', { launchToken: token }), launch);
    await waitFor((event) => event.type === 'error' && event.payload.code === 'launch_token_used', 'used token');
    await waitFor((event) => event.type === 'session_expired' && event.payload.reason === 'launch_failed', 'failed');
    const fresh = await stack.launchToken(player(), { balance: 7_000 });
    await page.evaluate((token) => (window as any).send('set_launch_token', { launchToken: token }), fresh);
    await waitFor((event) => event.type === 'balance_changed' && event.payload.balance === 7_000, 'new player');

    // a bet from the iframe (the phone slip opens in the page in auto height): bet_placed; its result: bet_settled
    const event = await stack.newEvent('Remo', 'Paysandu');
    await page.evaluate((path) => (window as any).send('navigate', { path }), `/event/${event.id}`);
    await frame.locator(`[data-selection="${event.away}"]`).click();
    await frame.locator('#slip-toggle').click();
    await frame.locator('.slip input').first().fill('10');
    await frame.locator('.slip .place').click();
    const placed = await waitFor((event) => event.type === 'bet_placed', 'bet_placed');
    assert.deepEqual(
      { ...placed.payload, betId: undefined },
      { betId: undefined, stake: 1000, currency: 'BRL', potentialPayout: 3600, legs: 1 },
    );
    await waitFor((event) => event.type === 'balance_changed' && event.payload.balance === 6_000, 'stake taken');
    await page.evaluate(() => (window as any).send('navigate', { path: '/my-bets' }));
    assert.equal((await stack.settle(event, 'away')).status, 200);
    const settled = await waitFor((event) => event.type === 'bet_settled', 'bet_settled');
    assert.deepEqual(settled.payload, { betId: placed.payload.betId, status: 'won', payout: 3600, currency: 'BRL' });

    // the session ends on the server (idle, expiry, the casino): the next player call hears 401, the host hears
    // session_expired and the sportsbook goes on anonymous
    const kept = await frame
      .locator('body')
      .evaluate((_body, key) => sessionStorage.getItem(key), `bookmaker.session.${stack.tenantId}`);
    assert.equal((await stack.t.request('POST', '/api/v1/session/logout', { token: kept!, body: {} })).status, 204);
    await page.evaluate(() => (window as any).send('refresh_balance', {}));
    await waitFor((event) => event.type === 'session_expired' && event.payload.reason === 'expired', 'expired');
    await frame.getByRole('banner').getByRole('button', { name: 'Entrar' }).waitFor();

    const all = await events();
    assert.ok(all.every((event) => event.source === 'bookmaker-sportsbook' && event.v === 1));
    assert.equal(all.filter((event) => event.type === 'ready').length, 1);
    await page.close();
  });
});

async function competitionOf(eventId: string): Promise<string> {
  const response = await stack.t.request('GET', `/api/v1/catalog/events/${eventId}`);
  return response.body.event.competition.id as string;
}

describe('the bet slip and My Bets', { skip }, () => {
  const eventPage = (page: Page, event: BookEvent) =>
    page.goto(stack.appUrl({ locale: 'en', path: `/event/${event.id}` }));

  it('places every staked single and the accumulator in one go, each reported, with the totals', async () => {
    const { page, id } = await loggedIn(100_000, {}, DESKTOP);
    const first = await stack.newEvent('Vasco', 'Botafogo');
    const second = await stack.newEvent('Bragantino', 'Cuiabá');
    await eventPage(page, first);
    await odds(page, first.home).click();
    await eventPage(page, second);
    await odds(page, second.away).click();
    const slip = page.getByRole('complementary', { name: 'Bet slip' });
    // each selection a single with its own stake, and the accumulator of both with its own
    await slip.getByLabel('Stake for Vasco').fill('10');
    await slip.getByLabel('Stake', { exact: true }).fill('5');
    // the accumulator comes first, its stake above the singles' (on a phone, not below every one of them)
    const stakes = await slip.locator('.stake-label').allTextContents();
    assert.equal(stakes[0], 'Stake', JSON.stringify(stakes));
    await slip
      .getByRole('button', { name: /^\+R\$10\.00$/ })
      .first()
      .click();
    assert.equal(await slip.getByLabel('Stake', { exact: true }).inputValue(), '15');
    // 2.10 × 3.60 = 7.56, shown as the bookmaker rounds it
    assert.match((await slip.locator('.acca-odds').textContent()) ?? '', /Accumulator \(2\)7\.56/);
    const totals = (await slip.locator('.slip-totals').textContent()) ?? '';
    // 10.00 + 15.00 staked; 21.00 + 113.40 potential payout
    assert.match(totals, /Total stakeR\$25\.00/);
    assert.match(totals, /Total potential payoutR\$134\.40/);
    assert.deepEqual(await seriousViolations(page, '2.2'), []);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-desktop-slip-singles-acca.png'), animations: 'disabled' });

    await slip.getByRole('button', { name: 'Place 2 bets R$25.00' }).click();
    await slip.getByText('2 bets placed').waitFor();
    assert.deepEqual(await slip.locator('.receipt-kind').allTextContents(), ['Single', 'Accumulator (2)']);
    await page.locator('.balance-amount', { hasText: 'R$975.00' }).waitFor();
    assert.equal(await stack.wallet.balanceOf(id), 97_500);
    await slip.getByRole('button', { name: 'Done' }).click();
    await slip.getByText('Your bet slip is empty').waitFor();
    await page.close();
  });

  it('follows the choice of odds changes, remembered across a reload', async () => {
    const { page } = await loggedIn(100_000);
    const event = await stack.newEvent('Criciúma', 'Avaí');
    await eventPage(page, event);
    await odds(page, event.draw).click();
    await openSlip(page);
    const slip = page.getByRole('dialog');
    await slip.getByLabel('Stake for Draw').fill('10');
    // always ask: even a better price waits for the player
    await slip.getByRole('radio', { name: 'Always ask' }).check();
    await stack.setOdds(event.draw, '3.50');
    await slip.getByRole('button', { name: 'Accept odds changes' }).waitFor({ timeout: 10_000 });
    // accept higher: that one is accepted at once
    await slip.getByRole('radio', { name: 'Accept higher' }).check();
    await slip.getByRole('button', { name: /^Place bet/ }).waitFor();
    assert.match((await slip.locator('.payout').textContent()) ?? '', /R\$35\.00/);

    // accept any: a lower price too, and the bet stands at the price of the moment
    await slip.getByRole('radio', { name: 'Accept any' }).check();
    await page.reload();
    await openSlip(page);
    assert.equal(await slip.getByRole('radio', { name: 'Accept any' }).isChecked(), true);
    await stack.setOdds(event.draw, '3.00');
    await slip.getByRole('button', { name: /^Place bet/ }).click();
    await slip.getByText('Bet placed').waitFor();
    assert.match((await slip.locator('.receipt-legs').textContent()) ?? '', /3\.00/);
    assert.match((await slip.locator('.receipt .figures').textContent()) ?? '', /Potential payoutR\$30\.00/);
    await page.close();
  });

  it('survives a reload and a new launch token, reading its prices and states again', async () => {
    const { page, id } = await loggedIn(100_000);
    const event = await stack.newEvent('Chapecoense', 'Figueirense');
    await eventPage(page, event);
    await odds(page, event.away).click();
    await openSlip(page);
    await page.getByRole('dialog').getByLabel('Stake for Figueirense').fill('7');
    const kept = await page.evaluate(() => ({
      local: Object.keys(localStorage),
      session: Object.keys(sessionStorage),
    }));
    assert.deepEqual(kept.local, [`bookmaker.slip.${stack.tenantId}`]);
    assert.ok(!kept.session.some((key) => key.startsWith('bookmaker.slip.')));

    await page.reload();
    await openSlip(page);
    assert.equal(await page.getByRole('dialog').getByLabel('Stake for Figueirense').inputValue(), '7');

    // a new launch (the casino's page opened again): the same slip, and its market suspended meanwhile
    await stack.setMarketStatus(event.marketId, 'suspended');
    await page.goto(stack.appUrl({ launch: await stack.launchToken(id), locale: 'en' }));
    await page.locator('.balance-amount').waitFor();
    await openSlip(page);
    const slip = page.getByRole('dialog');
    assert.equal(await slip.getByLabel('Stake for Figueirense').inputValue(), '7');
    await slip.locator('.slip-item .badge', { hasText: 'Suspended' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'app-mobile-slip-restored.png'), animations: 'disabled' });
    await slip.getByRole('button', { name: 'Remove Figueirense' }).click();
    await slip.getByText('Your bet slip is empty').waitFor();
    assert.deepEqual(await page.evaluate(() => Object.keys(localStorage)), []);
    await page.close();
  });

  it('My Bets: each leg with its result, and each money movement of the bet', async () => {
    const id = player();
    const token = await playerWithBalance(stack.t, stack.book, stack.wallet, id, 100_000);
    const first = await stack.newEvent('Ponte Preta', 'Guarani');
    const second = await stack.newEvent('Paraná', 'Londrina');
    const response = await stack.t.request('POST', '/api/v1/bets', {
      token,
      body: {
        requestId: `e2e-${id}-acca`,
        stake: 1000,
        legs: [
          { selectionId: first.draw, odds: '3.25' },
          { selectionId: second.home, odds: '2.10' },
        ],
      },
    });
    assert.equal(response.status, 201, response.text);
    assert.equal((await stack.settle(second, 'home')).status, 200);

    const page = await open({ launch: await stack.launchToken(id), locale: 'en', path: '/my-bets' });
    const card = page.getByRole('article').filter({ hasText: 'Accumulator (2)' });
    await card.waitFor();
    const legs = card.locator('.bet-leg');
    await legs.filter({ hasText: 'Paraná' }).locator('.badge.leg', { hasText: 'Won' }).waitFor();
    await legs.filter({ hasText: 'Ponte Preta' }).locator('.badge.leg', { hasText: 'Open' }).waitFor();
    const movements = card.getByRole('region', { name: 'Money movements' });
    assert.match((await movements.textContent()) ?? '', /Stake.*Done.*-R\$10\.00/);
    assert.deepEqual(await seriousViolations(page, '2.2'), []);
    await page.screenshot({ path: join(SCREENSHOTS, 'app-mobile-mybets-movements.png'), animations: 'disabled' });

    // the last leg wins: the bet is settled, with its payout among its movements (10.00 × 3.25 × 2.10 = 68.25)
    assert.equal((await stack.settle(first, 'draw')).status, 200);
    await page.getByRole('tab', { name: 'Settled' }).click();
    const settled = page.getByRole('tabpanel').getByRole('article').filter({ hasText: 'Accumulator (2)' });
    await settled.locator('.badge.status', { hasText: 'Won' }).waitFor();
    await settled.locator('.bet-movement', { hasText: 'Payout' }).filter({ hasText: '+R$68.25' }).waitFor();
    // keyboard: the tabs answer to the arrow keys
    await page.getByRole('tab', { name: 'Settled' }).press('ArrowLeft');
    assert.equal(await page.getByRole('tab', { name: 'Open' }).getAttribute('aria-selected'), 'true');
    await page.close();
  });
});

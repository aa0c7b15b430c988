// `npm run demo`, as a person tries it: the demo casino on its own origin logs a player in, mounts the sportsbook
// with the SDK, and the two talk. Started in-process on free ports and a temporary data directory.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { callJson } from '../demo/http.ts';
import { startDemo } from '../demo/index.ts';
import { seriousViolations } from './helpers/axe.ts';
import { SCREENSHOTS } from './helpers/browser.ts';
import { browserOnly } from './helpers/fixture.ts';

const { browser, skip } = browserOnly();
const PHONE = { width: 390, height: 844 };
let demo: Awaited<ReturnType<typeof startDemo>>;
before(async () => {
  if (skip) return;
  demo = await startDemo({
    ports: 0,
    dataDir: mkdtempSync(join(tmpdir(), 'bookmaker-demo-')),
    log: () => {},
    live: false,
  });
});
after(async () => {
  await demo?.close();
});

async function logIn(page: Page, name: string): Promise<void> {
  await page.locator('#login').click();
  await page.locator('#login-name').fill(name);
  await page.locator('#login-submit').click();
  await page.locator('#balance', { hasText: 'R$' }).waitFor();
  await page.locator('#events', { hasText: 'balance_changed' }).waitFor();
}

async function until<T>(look: () => Promise<T | undefined>, withinMs = 30_000): Promise<T> {
  const end = Date.now() + withinMs;
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

type Api = <T>(method: string, path: string) => Promise<T>;

/** A selection of an open main market of a match not yet started, with the other selections of its market. */
async function upcomingSelection(api: Api) {
  const { sports } = await api<{ sports: Array<{ id: string; eventCount: number }> }>('GET', '/api/v1/catalog/sports');
  for (const sport of sports.filter((entry) => entry.eventCount > 0)) {
    const { competitions } = await api<{ competitions: Array<{ events: Array<{ id: string; status: string }> }> }>(
      'GET',
      `/api/v1/catalog/sports/${sport.id}`,
    );
    for (const summary of competitions.flatMap((competition) => competition.events)) {
      if (summary.status !== 'scheduled') continue;
      const { event } = await api<{
        event: { markets: Array<{ id: string; status: string; selections: Array<{ id: string; odds: string }> }> };
      }>('GET', `/api/v1/catalog/events/${summary.id}`);
      const market = event.markets.find((candidate) => candidate.status === 'open');
      if (!market) continue;
      const selection = market.selections[0]!;
      return {
        marketId: market.id,
        selectionId: selection.id,
        odds: selection.odds,
        others: market.selections.map((entry) => entry.id),
      };
    }
  }
  throw new Error('no open market of an upcoming match');
}

describe('the demo casino', { skip }, () => {
  it('logs a player in on its own server and shows the embedded sportsbook with the wallet balance', async () => {
    assert.notEqual(new URL(demo.casinoUrl).origin, new URL(demo.sportsbookUrl).origin, 'two origins');
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(demo.casinoUrl);
    await logIn(page, 'Ana');
    const frame = page.frameLocator('#sportsbook iframe');
    await frame.getByRole('navigation', { name: 'Main' }).waitFor();
    // the casino shows the balance and Deposit: the sportsbook (mounted with header: false) does not
    assert.equal(await frame.getByRole('button', { name: 'Deposit' }).count(), 0);
    assert.equal(await frame.locator('.balance').count(), 0);
    const html = await page.content();
    assert.ok(!html.includes(demo.secrets.integrationApiKey), 'the integration key never reaches the browser');
    await page.screenshot({ path: join(SCREENSHOTS, 'demo-e2e-1440.png') });
    await page.close();
  });

  it('on a 390 px phone, the sportsbook fills the screen under the casino bar, its navigation whole, one header', async () => {
    const page = await browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    await page.goto(demo.casinoUrl);
    const frame = page.frameLocator('#sportsbook iframe');
    for (const player of [null, 'Bruno']) {
      if (player) await logIn(page, player);
      const nav = frame.getByRole('navigation', { name: 'Main' });
      await nav.waitFor();
      const iframe = (await page.locator('#sportsbook iframe').boundingBox())!;
      const casinoBar = (await page.locator('header.topbar').boundingBox())!;
      assert.equal(iframe.y, casinoBar.y + casinoBar.height, 'right under the casino bar');
      assert.equal(iframe.y + iframe.height, PHONE.height, 'down to the bottom of the screen');
      // the navigation's box in the page (a frame locator's box is in the top page's coordinates)
      const box = (await nav.boundingBox())!;
      assert.ok(box.height > 40, `${box.height}`);
      assert.ok(box.y >= iframe.y && box.y + box.height <= iframe.y + iframe.height, 'inside the iframe');
      assert.ok(box.y + box.height <= PHONE.height && box.x >= 0 && box.x + box.width <= PHONE.width, 'in view');
      assert.equal(await frame.locator('.topbar').count(), 0, "the sportsbook's header is hidden");
      const login = frame.getByRole('button', { name: 'Log in' });
      assert.equal(await login.count(), player ? 0 : 1, 'a visitor can log in from the navigation');
      await page.screenshot({ path: join(SCREENSHOTS, `demo-e2e-390${player ? '' : '-visitor'}.png`) });
    }
    await page.close();
  });

  it("greets a new visitor in the browser's language, and keeps the language switch on a phone", async () => {
    const page = await browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'es-AR' });
    await page.goto(demo.casinoUrl);
    assert.equal(await page.locator('html').getAttribute('lang'), 'es');
    const choice = page.locator('#locale');
    assert.ok(await choice.isVisible(), 'the language switch is on the phone too');
    assert.equal(await choice.inputValue(), 'es');
    await page.close();
  });

  it('speaks Portuguese at 390 px: its own buttons, title and money, and the sportsbook with it; axe finds nothing serious', async () => {
    const page = await browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'pt-BR' });
    await page.goto(demo.casinoUrl);
    assert.equal(await page.locator('html').getAttribute('lang'), 'pt-BR');
    assert.equal(await page.title(), 'Aurora Cassino · Esportes');
    assert.equal(await page.locator('#login').innerText(), 'Entrar');
    assert.equal(await page.locator('#join').innerText(), 'Cadastrar');
    assert.match((await page.locator('#sportsbook iframe').getAttribute('src'))!, /locale=pt-BR/);
    await page.locator('#login').click();
    assert.equal(await page.locator('#login-title').innerText(), 'Entrar no Aurora');
    await page.locator('#login-name').fill('Bia');
    await page.locator('#login-submit').click();
    // Intl in the chosen language: R$ 1.000,00
    await page.locator('#balance', { hasText: /R\$\s1\.000,00/ }).waitFor();
    await page.locator('#events', { hasText: 'balance_changed' }).waitFor();
    assert.equal(await page.locator('#deposit').innerText(), 'Depositar');
    assert.equal(await page.locator('#logout').innerText(), 'Sair');
    const frame = page.frameLocator('#sportsbook iframe');
    await frame.locator('html[lang="pt-BR"]').waitFor();
    await page.waitForTimeout(500);
    const found = await seriousViolations(page);
    assert.deepEqual(found, [], found.join('; '));
    await page.screenshot({ path: join(SCREENSHOTS, 'demo-e2e-390-pt-BR.png') });
    // the panels below the sportsbook, in Portuguese too
    await page.locator('#fault-title').scrollIntoViewIfNeeded();
    assert.equal(await page.locator('#fault-title').innerText(), 'Chave de falha da carteira');
    await page.screenshot({ path: join(SCREENSHOTS, 'demo-e2e-390-pt-BR-panels.png'), fullPage: true });

    // the switch changes the casino's words and the sportsbook's at once, without a reload
    await page.locator('#locale').selectOption('es');
    await frame.locator('html[lang="es"]').waitFor();
    assert.equal(await page.title(), 'Aurora Casino · Deportes');
    assert.equal(await page.locator('#logout').innerText(), 'Salir');
    assert.equal(await page.locator('#fault-title').innerText(), 'Interruptor de fallo de la billetera');
    // the cashier too, its money as Intl writes it in Spanish (BRL by its code: 100,00 BRL)
    await page.locator('#deposit').click();
    assert.equal(await page.locator('#cashier-title').innerText(), 'Caja');
    await page.locator('#amounts label', { hasText: /^100,00\sBRL$/ }).waitFor();
    await page.close();
  });

  it("the operator's fault switch makes the wallet refuse the next payout once: it is held for review, and a retry pays it", async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(demo.casinoUrl);
    await logIn(page, 'Carla');
    await page.locator('input[name="fault-target"][value="credit"]').check();
    await page.locator('#fault-arm').click();
    await page.locator('#fault-state', { hasText: 'Armed, one shot' }).waitFor();

    // Carla stakes on a match not yet started (her session, as the sportsbook would), and a trader settles it won
    const api = <T>(method: string, path: string, options: Parameters<typeof callJson>[3] = {}) =>
      callJson<T>(demo.sportsbookUrl, method, path, options);
    const { token } = await api<{ token: string }>('POST', '/api/v1/integration/sessions', {
      headers: { 'x-tenant-id': demo.tenantId, 'x-api-key': demo.secrets.integrationApiKey },
      body: { externalPlayerId: 'casino-carla' },
    });
    const leg = await upcomingSelection(api);
    const { bet } = await api<{ bet: { id: string } }>('POST', '/api/v1/bets', {
      token,
      body: {
        requestId: `fault-${Date.now()}`,
        stake: 10_00,
        legs: [{ selectionId: leg.selectionId, odds: leg.odds }],
      },
    });
    await api('POST', `/api/v1/admin/trading/markets/${encodeURIComponent(leg.marketId)}/settle`, {
      token: demo.secrets.traderToken,
      body: { results: leg.others.map((id) => ({ selectionId: id, result: id === leg.selectionId ? 'won' : 'lost' })) },
    });

    type Obligation = {
      id: string;
      kind: string;
      status: string;
      holdReason: string | null;
      operatorCode: string | null;
    };
    const payout = async () => {
      const { obligations } = await api<{ obligations: Obligation[] }>(
        'GET',
        `/api/v1/admin/obligations?bet=${encodeURIComponent(bet.id)}`,
        { token: demo.secrets.operatorToken },
      );
      return obligations.find((obligation) => obligation.kind === 'payout');
    };
    const held = await until(async () => ((await payout())?.status === 'held' ? payout() : undefined));
    assert.equal(held.holdReason, 'refused');
    assert.equal(held.operatorCode, 'player_blocked');

    // the page says what the wallet refused, and that the switch is off again (one shot)
    await page.locator('#fault-last', { hasText: 'payout' }).waitFor({ timeout: 20_000 });
    await page.locator('#fault-state', { hasText: 'Off' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'demo-e2e-fault-1440.png') });

    // in the Financial delivery workspace an operator retries it: the wallet answers normally now
    await api('POST', `/api/v1/admin/obligations/${held.id}/retry`, {
      token: demo.secrets.operatorToken,
      body: { reason: 'the demo fault switch is off again' },
    });
    await until(async () => ((await payout())?.status === 'applied' ? true : undefined));
    await page.close();
  });

  it("the casino's dark theme reads on every page of the demo catalog (axe, 390 and 1280 px)", async () => {
    const casino = await browser.newPage();
    await casino.goto(demo.casinoUrl);
    // the sportsbook's address as the casino mounts it (its theme), opened on its own
    const address = (await casino.locator('#sportsbook iframe').getAttribute('src'))!;
    await casino.close();
    assert.match(address, /theme\.mode=dark/);
    for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
      const page = await browser.newPage({ viewport, reducedMotion: 'reduce' });
      const check = async (what: string) => {
        await page.locator('h1').first().waitFor();
        // not 'networkidle': the change stream stays open while the page is shown
        await page.waitForLoadState('load');
        await page.waitForTimeout(500);
        const found = await seriousViolations(page);
        assert.deepEqual(found, [], `${what} at ${viewport.width}: ${found.join('; ')}`);
      };
      await page.goto(address);
      await page.locator('.event-row').first().waitFor();
      await check('home');
      await page.screenshot({ path: join(SCREENSHOTS, `demo-theme-home-${viewport.width}.png`) });
      for (const sport of ['Basketball', 'Tennis']) {
        await page.goto(address);
        await page
          .getByRole('button', { name: new RegExp(`^${sport}`) })
          .first()
          .click();
        await page.locator('.event-row').first().waitFor();
        await check(sport);
        await page.locator('.event-link').first().click();
        await page.locator('.odds').first().waitFor();
        await check(`a ${sport} event`);
      }
      await page.goto(`${address}&path=%2Flive`);
      await check('live');
      await page.close();
    }
  });
});

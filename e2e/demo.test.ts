// `npm run demo`, as a person tries it: the demo casino on its own origin logs a player in, mounts the sportsbook
// with the SDK, and the two talk. Started in-process on free ports and a temporary data directory.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
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

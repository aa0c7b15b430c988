// The first screen's speed, in headless Chromium against the real service: the page starts its first reads before
// the app's script arrives (allowed by its policy, each read made once), and the Core Web Vitals measurement the
// build prints (e2e/vitals.ts) sees a layout shift and a slow interaction when there is one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { stackAndBrowser } from './helpers/fixture.ts';
import { observeVitals, PHONE_PROFILE, phoneSlowdown, readVitals } from './vitals.ts';

const { stack, browser, skip } = stackAndBrowser();

async function openHome(): Promise<{ page: Page; reads: string[]; violations: string[] }> {
  const page = await browser.newPage({ viewport: PHONE_PROFILE.viewport });
  const reads: string[] = [];
  const violations: string[] = [];
  page.on('request', (request) => reads.push(new URL(request.url()).pathname));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await observeVitals(page);
  await page.goto(stack.appUrl({ locale: 'en' }));
  await page.getByRole('heading', { name: 'Live now' }).waitFor();
  await page.locator('.event-row .odds').first().waitFor();
  return { page, reads, violations };
}

describe("Lighthouse's phone, whatever the machine's speed", () => {
  it("slows the CPU by Lighthouse's 4x, lowered by the index of a weaker machine, never below 1x", () => {
    assert.equal(phoneSlowdown(1_760), 4, "Lighthouse's default 4x on a typical high-end desktop");
    assert.equal(phoneSlowdown(3_625), 4, 'a faster machine keeps the 4x');
    assert.equal(phoneSlowdown(880), 2);
    assert.equal(phoneSlowdown(1_100), 2.5);
    assert.equal(phoneSlowdown(440), 1);
    assert.equal(phoneSlowdown(200), 1, 'a machine slower than the phone is not sped up');
  });
});

describe('the first screen', { skip }, () => {
  it("starts home's reads from the page itself, allowed by the page's policy, and makes each read once", async () => {
    const { page, reads, violations } = await openHome();
    assert.deepEqual(violations, []);
    assert.equal(
      await page.evaluate(() => (window as { earlyReads?: Map<string, unknown> }).earlyReads?.size),
      0,
      'every early read was taken by the app',
    );
    for (const path of ['/api/v1/config', '/api/v1/catalog/sports', '/api/v1/catalog/live']) {
      assert.equal(reads.filter((read) => read === path).length, 1, `${path} read once`);
    }
    // the policy allows the page's own inline script by its hash, and no other
    const response = await stack.t.request('GET', `/?tenant=${stack.tenantId}`);
    assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
    await page.close();
  });

  it('the measurement sees a layout shift and a slow interaction when the page has them', async () => {
    const { page } = await openHome();
    assert.ok((await readVitals(page)).lcpMs > 0, 'the largest paint is reported');
    // content pushed down by something inserted above it, with no input: a layout shift
    await page.evaluate(() => {
      const banner = document.createElement('div');
      banner.style.height = '400px';
      document.querySelector('main')!.prepend(banner);
    });
    // a click whose handler keeps the main thread for 300 ms: a slow interaction. On any price the player can take:
    // a live match's prices are suspended around a goal, and a suspended button takes no click.
    await page.evaluate(() => {
      document.addEventListener('click', () => {
        const until = performance.now() + 300;
        while (performance.now() < until);
      });
    });
    await page.locator('.event-row .odds:not([disabled])').first().click();
    // web-vitals reports as it goes: the first report can be the interaction's short pointerdown, before the click's
    // own entry (the slow one) arrives; what it reports in the end is what the build reads
    await page
      .waitForFunction(() => (window.vitals.inpMs ?? 0) >= 300, undefined, { timeout: 5_000 })
      .catch(() => undefined);
    const vitals = await readVitals(page);
    assert.ok(vitals.cls > 0.1, `CLS ${vitals.cls}`);
    assert.ok(vitals.inpMs >= 300, `INP ${vitals.inpMs} ms`);
    await page.close();
  });
});

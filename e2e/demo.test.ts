// `npm run demo`, as a person tries it: the demo casino on its own origin logs a player in, mounts the sportsbook
// with the SDK, and the two talk. Started in-process on free ports and a temporary data directory.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startDemo } from '../demo/index.ts';
import { browserUnavailable, launchBrowser, SCREENSHOTS } from './helpers/browser.ts';

const skip = browserUnavailable();
let demo: Awaited<ReturnType<typeof startDemo>>;
let browser: Browser;
before(async () => {
  if (skip) return;
  demo = await startDemo({
    ports: 0,
    dataDir: mkdtempSync(join(tmpdir(), 'bookmaker-demo-')),
    log: () => {},
    live: false,
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await demo?.close();
});

describe('the demo casino', { skip: skip ?? false }, () => {
  it('logs a player in on its own server and shows the embedded sportsbook with the wallet balance', async () => {
    assert.notEqual(new URL(demo.casinoUrl).origin, new URL(demo.sportsbookUrl).origin, 'two origins');
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(demo.casinoUrl);
    await page.locator('#login').click();
    await page.locator('#login-name').fill('Ana');
    await page.locator('#login-submit').click();
    const frame = page.frameLocator('#sportsbook iframe');
    await frame.getByRole('button', { name: 'Deposit' }).waitFor();
    await page.locator('#balance', { hasText: 'R$' }).waitFor();
    await page.locator('#events', { hasText: 'balance_changed' }).waitFor();
    const html = await page.content();
    assert.ok(!html.includes(demo.secrets.integrationApiKey), 'the integration key never reaches the browser');
    await page.screenshot({ path: join(SCREENSHOTS, 'demo-e2e-1440.png') });
    await page.close();
  });
});

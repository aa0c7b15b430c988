import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../test/helpers/app.ts';
import { SCREENSHOTS } from './helpers/browser.ts';
import { browserOnly } from './helpers/fixture.ts';

const { browser, skip } = browserOnly();
let t: TestApp;
before(async () => {
  if (!skip) t = await startTestApp();
});
after(async () => {
  await t?.close();
});

describe('the human API reference', { skip }, () => {
  it('GET /docs renders both documents, switching from the platform API to the aggregator API', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const failures: string[] = [];
    page.on('requestfailed', (request) => failures.push(request.url()));
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (violation: string) => violations.push(violation));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { reportViolation(text: string): void }).reportViolation(
          `${event.effectiveDirective} ${event.blockedURI}`,
        ),
      ),
    );
    await page.goto(`${t.url}/docs`);
    await page.getByRole('heading', { level: 1, name: 'Bookmaker API' }).waitFor();
    for (const text of ['Register a casino as a client', 'admin: trading']) {
      assert.ok(await page.getByText(text).first().isVisible(), `the reference lists ${text}`);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-platform-1280.png') });

    await page.getByRole('button', { name: 'Bookmaker API' }).first().click();
    await page.getByText('Bookmaker aggregator API').click();
    await page.getByRole('heading', { level: 1, name: 'Bookmaker aggregator API' }).waitFor();
    assert.ok(await page.getByText('v1.0.0').first().isVisible(), 'the aggregator document is version 1.0.0');
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-aggregator-1280.png') });
    assert.deepEqual(failures, [], 'everything the page needs is served by this deployment');
    // The page's Content-Security-Policy lets it work. The one report allowed is the bundle's probe for eval
    // (Zod tries `Function('')` once, in a try/catch, and works without it).
    assert.deepEqual(
      violations.filter((violation) => violation !== 'script-src eval'),
      [],
      'the reference runs under its Content-Security-Policy',
    );
    await page.close();
  });

  it('GET / points a person to the reference', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(t.url);
    assert.equal(await page.title(), 'Bookmaker');
    await page.getByRole('link', { name: 'API reference' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bookmaker API' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-platform-390.png') });
    await page.close();
  });
});

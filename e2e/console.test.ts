// The staff console (console/, served at /admin) in headless Chromium against the real service: sign-in, the
// platform administrator's aggregators and keys, the operator's workspace, what each role may open, the console in
// Portuguese and Spanish, accessibility (axe-core) and screenshots of each screen at 390 px and 1280 px
// (e2e/screenshots/console-*.png).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { totpCode } from '../src/staff/totp.ts';
import { STAFF_PASSWORD } from '../test/helpers/app.ts';
import { createClientBody, setUpAggregator } from '../test/helpers/aggregator.ts';
import { newRequestId, playerWithBalance } from '../test/helpers/sportsbook.ts';
import { createTenant, openSession } from '../test/helpers/tenant.ts';
import { seriousViolations } from './helpers/axe.ts';
import { SCREENSHOTS } from './helpers/browser.ts';
import { stackAndBrowser } from './helpers/fixture.ts';

const { stack, browser, skip } = stackAndBrowser({ demo: false });
const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let accounts = 0;

type Role = 'platform_admin' | 'trader' | 'operator';

/** A new staff account, enrolled, that has never signed in: its e-mail and a code for the service's clock. */
async function account(role: Role, tenantId?: string) {
  accounts += 1;
  const email = `${role}.${accounts}@console.test`;
  const created = await stack.t.app.services.staff.create({ email, password: STAFF_PASSWORD, role, tenantId });
  return { email, code: () => totpCode(created.totpSecret, stack.t.clock.now()) };
}

async function signedIn(role: Role, options: { tenantId?: string; viewport?: typeof DESKTOP } = {}): Promise<Page> {
  const staff = await account(role, options.tenantId);
  const page = await browser.newPage({ viewport: options.viewport ?? DESKTOP });
  await page.goto(`${stack.url}/admin`);
  await page.getByLabel('E-mail').fill(staff.email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByLabel('Authenticator code').fill(staff.code());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  return page;
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of [
    ['mobile', MOBILE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({
      path: join(SCREENSHOTS, `console-${size}-${name}.png`),
      fullPage: true,
      animations: 'disabled',
    });
  }
}

async function noSeriousViolations(page: Page, screen: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `axe on ${screen}`);
}

describe('the staff console', { skip }, () => {
  it('is served at /admin and every path under it, with a strict policy, never framed, never cached', async () => {
    for (const path of ['/admin', '/admin/aggregators/ag_x?tab=keys']) {
      const response = await fetch(`${stack.url}${path}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const policy = response.headers.get('content-security-policy')!;
      assert.match(policy, /frame-ancestors 'none'/);
      assert.match(policy, /script-src 'self'/);
      assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
      assert.match(await response.text(), /<script type="module"[^>]+src="\/admin\/assets\//);
    }
  });

  it('signs in with e-mail, password and code, keeps the token out of storage and the address, and signs out', async () => {
    const event = await stack.newEvent('Home Stakes', 'Card Town');
    const token = await playerWithBalance(stack.t, stack.book, stack.wallet, 'console-home', 50_00);
    const placed = await stack.t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 5_00, legs: [{ selectionId: event.home, odds: '2.10' }] },
    });
    assert.equal(placed.status, 201, placed.text);
    const page = await signedIn('platform_admin');
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    assert.equal(page.url(), `${stack.url}/admin`);
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
    );
    assert.doesNotMatch(stored, /bm_staff_/);
    await page.getByRole('region', { name: 'Movements sent to wallets, last 24 hours' }).waitFor();
    // today's money, every part of GGR shown so that it adds up (a stake confirmed before the page opened)
    const today = page.getByRole('region', { name: 'Today (UTC)' });
    for (const header of ['Stakes', 'Payouts', 'Refunds', 'Cash-outs', 'Corrections', 'GGR', 'Adjustments']) {
      await today.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await noSeriousViolations(page, 'home');
    await shoot(page, 'home');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await noSeriousViolations(page, 'sign-in');
    await shoot(page, 'sign-in');
    await page.close();
  });

  it('a first sign-in enrols the authenticator: the QR code and the key, then one code finishes it', async () => {
    const email = 'first.sign-in@console.test';
    await stack.t.app.services.staff.createForEnrolment({ email, password: STAFF_PASSWORD, role: 'trader' });
    const page = await browser.newPage({ viewport: MOBILE });
    await page.goto(`${stack.url}/admin`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(STAFF_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set up your authenticator' }).waitFor();
    await page.getByRole('img', { name: 'QR code of your authenticator key' }).waitFor();
    const secret = (await page.locator('code.key').innerText()).replaceAll(' ', '');
    assert.match(secret, /^[A-Z2-7]{16,}$/);
    await noSeriousViolations(page, 'enrolment');
    await shoot(page, 'enrolment');
    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Finish and sign in' }).click();
    await page.getByRole('alert').getByText('That code does not match').waitFor();
    await page.getByLabel('Code from the app').fill(totpCode(secret, stack.t.clock.now()));
    await page.getByRole('button', { name: 'Finish and sign in' }).click();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.waitForURL(`${stack.url}/admin/trading/events`);
    await page.close();
  });

  it('a wrong code is refused with a message that says what to check, and nothing signs in', async () => {
    const staff = await account('trader');
    const page = await browser.newPage({ viewport: MOBILE });
    await page.goto(`${stack.url}/admin`);
    await page.getByLabel('E-mail').fill(staff.email);
    await page.getByLabel('Password').fill(STAFF_PASSWORD);
    await page.getByLabel('Authenticator code').fill('000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('The e-mail, password or code is not right').waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Console' }).count(), 0);
    await page.close();
  });

  it('a platform administrator creates an aggregator, authorizes it, issues a key shown once, and revokes it', async () => {
    const page = await signedIn('platform_admin');
    await page.getByRole('link', { name: 'Aggregators' }).click();
    await page.getByRole('button', { name: 'New aggregator' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Console Games');
    await page.getByRole('dialog').getByRole('button', { name: 'New aggregator' }).click();
    await page.getByRole('heading', { level: 1, name: 'Console Games' }).waitFor();

    // the API's refusal is shown next to the field it names
    await page.getByLabel('Currencies').fill('BRL');
    await page.getByLabel('Jurisdictions').fill('BR');
    await page.getByLabel('Territories').fill('BR');
    await page.getByLabel('Wallet origins').fill('not an origin');
    await page.getByLabel('Agreement reference').fill('MSA-2026-01');
    // the activation setting says what it decides: whether the aggregator's ActivateClient is refused
    const activation = page.getByRole('checkbox', { name: 'May activate its own clients (ActivateClient)' });
    assert.equal(await activation.isChecked(), false);
    assert.match((await activation.getAttribute('aria-describedby')) ?? '', /auto-activation-hint/);
    await page.getByText(/refused \(403 activation_not_permitted\)/).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    const originField = page.locator('.field', { has: page.getByLabel('Wallet origins') });
    await originField.locator('.field-error').waitFor();
    await noSeriousViolations(page, 'aggregator with a field error');
    await page.getByLabel('Wallet origins').fill('https://wallet.console.test');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    await page.getByText('Enabled', { exact: true }).first().waitFor();

    await page.getByRole('button', { name: 'Issue key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Issue key' }).click();
    const secret = page.getByRole('dialog').getByLabel('The key');
    await secret.waitFor();
    const key = await secret.inputValue();
    assert.match(key, /^bm_agg_/);
    await page.getByRole('dialog').getByText('it will not be shown again').waitFor();
    await noSeriousViolations(page, 'key issued');
    await shoot(page, 'key-issued');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    assert.equal(await page.getByText(key).count(), 0, 'the key is not shown after its dialog closes');

    const revoke = page.getByRole('button', { name: /^Revoke ak_/ });
    await revoke.click();
    await page.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Revoked', { exact: true }).waitFor();
    const refused = await fetch(`${stack.url}/api/v1/aggregator/clients`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(refused.status, 401, 'the revoked key no longer works');
    await shoot(page, 'aggregator');
    await page.getByRole('link', { name: 'Aggregators' }).click();
    await page.getByRole('link', { name: 'Console Games' }).waitFor();
    await noSeriousViolations(page, 'aggregators');
    await shoot(page, 'aggregators');
    await page.close();
  });

  it('an operator sees its own tenant only: no platform screens, and the API refuses them too', async () => {
    const page = await signedIn('operator', { tenantId: stack.tenantId });
    await page.waitForURL(`${stack.url}/admin/workspace`);
    assert.equal(await page.getByRole('link', { name: 'Aggregators' }).count(), 0);
    await page.goto(`${stack.url}/admin`);
    await page.getByLabel('E-mail').waitFor();
    // a reload forgets the session (the token lives in memory only): sign in again, then open a platform address
    const again = await signedIn('operator', { tenantId: stack.tenantId });
    // the console takes an operator to the workspace first: only then is the address the test's to change
    await again.waitForURL(`${stack.url}/admin/workspace`);
    await again.evaluate(() => {
      history.pushState(null, '', '/admin/aggregators');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await again.getByRole('heading', { name: 'Not for your role' }).waitFor();
    await noSeriousViolations(again, 'not for your role');
    await page.close();
    await again.close();
  });

  it('a trader creates an event and its market, settles it from the dry run, and the credit is delivered', async () => {
    const page = await signedIn('trader');
    await page.waitForURL(`${stack.url}/admin/trading/events`);
    await page.getByRole('table', { name: 'Events' }).waitFor();
    await noSeriousViolations(page, 'trading events');
    await shoot(page, 'trading-events');

    await page.getByRole('button', { name: 'New event' }).click();
    const dialog = page.getByRole('dialog', { name: 'New event' });
    await dialog.getByLabel('Home team').fill('Console Rovers');
    await dialog.getByLabel('Away team').fill('Dialog United');
    const tomorrow = new Date(stack.t.clock.now().getTime() + 24 * 3600 * 1000);
    const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await dialog.getByLabel('Starts').fill(local);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { level: 1, name: 'Console Rovers – Dialog United' }).waitFor();
    await page.getByRole('button', { name: 'New market' }).click();
    await page.getByRole('dialog', { name: 'New market' }).getByRole('button', { name: 'Create' }).click();
    await page.getByText('Margin:').waitFor();
    // the kick-off moves an hour earlier
    const earlier = new Date(tomorrow.getTime() - 3600 * 1000);
    const earlierLocal = new Date(earlier.getTime() - earlier.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel('Starts').fill(earlierLocal);
    await page.getByRole('button', { name: 'Save event' }).click();
    await page.getByText('Event saved.').waitFor();
    const moved = (await stack.t.request('GET', `/api/v1/catalog/events/${page.url().split('/').pop()}`)).body.event;
    assert.equal(moved.startsAt, new Date(earlierLocal).toISOString());

    // live, in the second half, the clock running from 45:00
    await page.getByLabel('Event status').selectOption('live');
    await page.getByLabel('Period').selectOption('second_half');
    await page.getByLabel('Clock', { exact: true }).fill('45:00');
    await page.getByLabel('Clock running').check();
    await page.getByRole('button', { name: 'Save event' }).click();
    // the reading depends on the test server's manual clock against the browser's real one: a clock is shown
    await page.getByText(/^0 – 0 · Second half · \d+:[0-5]\d$/).waitFor();
    await noSeriousViolations(page, 'trading event');
    await shoot(page, 'trading-event');

    // a player backs the home side at the price the trader set
    const eventId = page.url().split('/').pop()!;
    const event = (await stack.t.request('GET', `/api/v1/catalog/events/${eventId}`)).body.event;
    const home = event.markets[0].selections[0];
    const token = await playerWithBalance(stack.t, stack.book, stack.wallet, 'console-bettor', 100_00);
    const placed = await stack.t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: home.id, odds: home.odds }] },
    });
    assert.equal(placed.status, 201, placed.text);
    // the risk view, read again every few seconds: the book loses 11.00 if the home side wins
    const risk = page.getByRole('region', { name: 'Risk' });
    const homeRow = risk.getByRole('row', { name: /Console Rovers/ });
    await homeRow.getByRole('cell', { name: /-R\$\s?11[.,]00/ }).waitFor();
    await noSeriousViolations(page, 'risk view');

    await page.getByRole('button', { name: 'Settle', exact: true }).click();
    const settle = page.getByRole('dialog');
    // nothing is chosen for the trader, and a live event is said to be unfinished
    await settle.getByText('The event: Live, 0–0.').waitFor();
    await settle.getByText('The event has not finished.', { exact: false }).waitFor();
    await settle.getByRole('button', { name: 'Show what it will do' }).click();
    await settle.getByText('Choose a result for every selection.').waitFor();
    await settle.getByLabel('Result of Console Rovers').selectOption('won');
    await settle.getByLabel('Result of Draw').selectOption('lost');
    await settle.getByLabel('Result of Dialog United').selectOption('lost');
    await settle.getByRole('button', { name: 'Show what it will do' }).click();
    await settle.getByText('1 bet judged').waitFor();
    await settle.getByText(/1 credit, R\$\s?21[.,]00/).waitFor();
    await noSeriousViolations(page, 'settlement dry run');
    await shoot(page, 'trading-settle-preview');
    assert.equal(await stack.wallet.balanceOf('console-bettor'), 90_00, 'the dry run owes nothing');
    await settle.getByRole('button', { name: 'Settle now' }).click();
    await page.getByText('Settled', { exact: true }).first().waitFor();
    // the market says what the settlement did
    await page
      .getByRole('status')
      .getByText(/^Settled \(version 1\): 1 bet changed; owed R\$\s?21[.,]00 in credits\.$/)
      .waitFor();
    await stack.t.app.services.delivery.idle();
    assert.equal(await stack.wallet.balanceOf('console-bettor'), 111_00, 'the payout reached the wallet');

    // a correction: the home side did not win after all; the resettlement says what it owes back
    await page.getByRole('button', { name: 'Resettle', exact: true }).click();
    const resettle = page.getByRole('dialog');
    await resettle.getByLabel('Result of Console Rovers').selectOption('lost');
    await resettle.getByLabel('Result of Draw').selectOption('won');
    await resettle.getByLabel('Result of Dialog United').selectOption('lost');
    await resettle.getByRole('button', { name: 'Show what it will do' }).click();
    await resettle.getByRole('button', { name: 'Resettle now' }).click();
    await page
      .getByRole('status')
      .getByText(/^Resettled \(version 2\): 1 bet changed; owed R\$\s?21[.,]00 in debits\.$/)
      .waitFor();
    await stack.t.app.services.delivery.idle();
    assert.equal(await stack.wallet.balanceOf('console-bettor'), 90_00, 'the payout was taken back');
    await page.close();
  });

  it("a trader settles every market of an event from its final score, after seeing each market's results", async () => {
    const event = await stack.newEvent('Score Rovers', 'Rule City');
    const trade = (method: string, path: string, body: unknown) =>
      stack.t.request(method, `/api/v1/admin/trading${path}`, { token: stack.book.trader, body });
    const totals = await trade('POST', `/events/${event.id}/markets`, {
      type: 'totals',
      line: '2.5',
      selections: [
        { name: 'Over 2.5', outcome: 'over', odds: '1.90' },
        { name: 'Under 2.5', outcome: 'under', odds: '1.90' },
      ],
    });
    assert.equal(totals.status, 201, totals.text);
    assert.equal((await trade('PATCH', `/events/${event.id}`, { status: 'live' })).status, 200);
    const page = await signedIn('trader');
    // the console keeps its token in memory only: it is reached by its own links, never by a new page load
    await page.getByLabel('Search events').fill('Score Rovers');
    await page.getByLabel('Search events').press('Enter');
    await page.getByRole('link', { name: 'Score Rovers vs Rule City' }).click();
    await page.getByRole('button', { name: 'Final score…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Final score: Score Rovers – Rule City' });
    await dialog.getByLabel('Final score: Score Rovers').fill('2');
    await dialog.getByLabel('Final score: Rule City').fill('1');
    await dialog.getByRole('button', { name: 'Show what it will do' }).click();
    await dialog.getByText('Over 2.5: Won · Under 2.5: Lost').waitFor();
    await dialog.getByText('Score Rovers: Won · Draw: Lost · Rule City: Lost').waitFor();
    await noSeriousViolations(page, 'final score dry run');
    await shoot(page, 'trading-final-score');
    await dialog.getByRole('button', { name: 'Settle 2 markets now' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Settled', { exact: true }).nth(1).waitFor();
    const after = (await trade('GET', `/events/${event.id}`, undefined)).body.event;
    assert.deepEqual([after.status, after.score], ['finished', { home: 2, away: 1 }]);
    await page.close();
  });

  it("a platform administrator registers a feed producer (its key once); traders see each producer's state", async () => {
    const admin = await signedIn('platform_admin');
    await admin.getByRole('link', { name: 'Feed producers' }).click();
    await admin.getByRole('button', { name: 'Register producer' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Register producer' });
    await dialog.getByLabel('Id').fill('console-feed');
    await dialog.getByLabel('Name').fill('Console Feed');
    await dialog.getByRole('button', { name: 'Register producer' }).click();
    const shown = admin.getByRole('dialog', { name: 'Console Feed is registered' });
    const key = await shown.getByLabel('Feed key').inputValue();
    assert.match(key, /^bm_feed_/);
    await shown.getByRole('button', { name: 'Close' }).click();
    await admin.getByRole('cell', { name: /Console Feed/ }).waitFor();
    await admin.close();

    const trader = await signedIn('trader');
    await trader.getByRole('link', { name: 'Feed producers' }).click();
    const row = trader.getByRole('row').filter({ hasText: 'Console Feed' });
    await row.getByText('Up', { exact: true }).waitFor();
    await row.getByText('Never', { exact: true }).waitFor();
    assert.equal(await trader.getByRole('button', { name: 'Register producer' }).count(), 0);
    await noSeriousViolations(trader, 'feed producers');
    await shoot(trader, 'trading-producers');
    await trader.close();
  });

  /** Our id of a new player with this much money in the wallet. */
  async function fundedPlayer(externalId: string, balance: number): Promise<string> {
    const token = await playerWithBalance(stack.t, stack.book, stack.wallet, externalId, balance);
    return (await stack.t.request('GET', '/api/v1/session', { token })).body.player.id as string;
  }

  /** An adjustment proposed from the console, its player found by the casino's id or by ours. */
  async function proposeAdjustment(
    page: Page,
    player: { casinoId: string } | { ourId: string },
    direction: 'Credit' | 'Debit',
    amount: string,
  ) {
    await page.getByRole('link', { name: 'Adjustments' }).click();
    await page.getByRole('button', { name: 'New adjustment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New adjustment' });
    if ('casinoId' in player) {
      await dialog.getByLabel('The casino’s player id').fill(player.casinoId);
    } else {
      await dialog.getByLabel(/^our player id/).check();
      await dialog.getByLabel('Player id (pl_…)', { exact: true }).fill(player.ourId);
    }
    await dialog.getByLabel(new RegExp(`^${direction}`)).check();
    await dialog.getByLabel('Amount').fill(amount);
    await dialog.getByLabel('Reason').fill(`console test: ${direction.toLowerCase()} ${amount}`);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  it('an operator resolves a debit held for review in part, told why retry is not offered, and it leaves the queue', async () => {
    const playerId = await fundedPlayer('console-held', 5_00);
    const page = await signedIn('operator', { tenantId: stack.tenantId });
    // a debit the wallet refuses (insufficient funds) is held for review
    await proposeAdjustment(page, { casinoId: 'console-held' }, 'Debit', '20.00');
    // the operator is told what became of it, and sees the tenant's bounds
    await page
      .getByRole('status')
      .getByText(/^Approved at once \(within the threshold\): a debit of R\$\s?20[.,]00 to console-held/)
      .waitFor();
    await page
      .getByText(/an adjustment above R\$\s?1,000\.00 waits for a second staff member; none may be above/)
      .waitFor();
    await stack.t.app.services.delivery.idle();
    await page.getByRole('link', { name: 'Financial delivery' }).click();
    const held = page.getByRole('button', { name: /^adjustment:adj_/ });
    await held.waitFor();
    await page.getByRole('link', { name: /^Financial delivery\s*, 1 movement waits for review$/ }).waitFor();
    await page.getByRole('option', { name: 'Held for review (1)' }).waitFor({ state: 'attached' });
    await noSeriousViolations(page, 'workspace');
    await shoot(page, 'workspace');
    await held.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('insufficient_funds').first().waitFor();
    await dialog.getByText(/^POST http:\/\/127\.0\.0\.1:\d+\/debit$/).waitFor();
    await dialog.locator('pre', { hasText: 'adjustment:adj_' }).waitFor();
    // why each decision is offered, and why retry is not
    await dialog.getByText(/^Retry is not offered: the wallet keeps its refusal under this txId/).waitFor();
    await dialog.getByText(/^Resolve records that it was done outside the service/).waitFor();
    await dialog.getByRole('button', { name: 'Resolve' }).click();
    // a refusal is said beside its field in the operator's words, with the bound the hint gives
    await dialog.getByLabel('Reason').fill('ok');
    await dialog.getByRole('button', { name: 'Resolve' }).click();
    await dialog.locator('.field-error', { hasText: /^Needs at least 3 characters\.$/ }).waitFor();
    await dialog.getByText('Required, 3 to 500 characters; it is kept in the audit log.').waitFor();
    await dialog.getByLabel('Reason').fill('The casino collected 5.00 by hand (ticket 4711).');
    // the casino collected 5.00 of the 20.00: more than the debit is refused beside the field
    await dialog.getByLabel('Collected').fill('25.00');
    await dialog.getByRole('button', { name: 'Resolve' }).click();
    await dialog
      .locator('.field-error', { hasText: /^Write an amount such as 12\.50, at most R\$\s?20\.00\.$/ })
      .waitFor();
    await dialog.getByLabel('Collected').fill('5.00');
    await noSeriousViolations(page, 'workspace decision');
    await shoot(page, 'workspace-resolve-in-part');
    await dialog.getByRole('button', { name: 'Resolve' }).click();
    await page.getByText('No movement in this state.').waitFor();
    await page.getByRole('option', { name: 'Held for review (0)' }).waitFor({ state: 'attached' });
    const resolved = await stack.t.db
      .selectFrom('wallet_obligations')
      .select(['status', 'review_reason', 'written_off'])
      .where('tx_id', 'like', 'adjustment:%')
      .where('player_id', '=', playerId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(resolved, {
      status: 'resolved',
      review_reason: 'The casino collected 5.00 by hand (ticket 4711).',
      written_off: 15_00,
    });
    await page.close();
  });

  it('an adjustment above the threshold waits for a second person, who approves it, and the money moves', async () => {
    const playerId = await fundedPlayer('console-four-eyes', 10_00);
    const first = await signedIn('operator', { tenantId: stack.tenantId });
    await proposeAdjustment(first, { ourId: playerId }, 'Credit', '1500.00');
    await first
      .getByRole('status')
      .getByText(/^Proposed: a credit of R\$\s?1,500\.00 to console-four-eyes/)
      .waitFor();
    await first.getByText('Yours: another staff member must decide it.').waitFor();
    // both ids of the player: the casino's, as its staff know the player, and ours
    const proposed = first.getByRole('row').filter({ hasText: 'console-four-eyes' });
    await proposed.getByText(playerId).waitFor();
    await noSeriousViolations(first, 'adjustments');
    await shoot(first, 'adjustments');

    const second = await signedIn('operator', { tenantId: stack.tenantId });
    await second.getByRole('link', { name: 'Adjustments' }).click();
    await second.getByRole('button', { name: 'Approve' }).click();
    await second.getByRole('dialog').getByLabel('Reason').fill('Goodwill agreed with the casino.');
    await second.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
    await second.getByText('No adjustment here.').waitFor();
    await stack.t.app.services.delivery.idle();
    assert.equal(await stack.wallet.balanceOf('console-four-eyes'), 1_510_00);
    // the approved list names who proposed it and who approved it, by e-mail, never by an internal id
    await first.getByLabel('Status').selectOption('approved');
    const row = first.getByRole('row').filter({ hasText: 'console-four-eyes' });
    await row.getByText(/^by operator\..*@/).waitFor();
    assert.doesNotMatch((await row.textContent()) ?? '', /[0-9a-f]{8}-[0-9a-f]{4}-/);
    await first.close();
    await second.close();
  });

  it('finds a player’s bets by the casino’s own player id, each with its legs and wallet movements', async () => {
    const token = await playerWithBalance(stack.t, stack.book, stack.wallet, 'console-lookup', 50_00);
    const { eventId, selectionId } = { eventId: stack.book.events[0]!.id, selectionId: stack.book.events[0]!.home };
    const market = (await stack.t.request('GET', `/api/v1/catalog/events/${eventId}`)).body.event.markets[0];
    const odds = market.selections.find((selection: { id: string }) => selection.id === selectionId).odds as string;
    const placed = await stack.t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 5_00, legs: [{ selectionId, odds }] },
    });
    assert.equal(placed.status, 201, placed.text);
    const page = await signedIn('operator', { tenantId: stack.tenantId });
    await page.getByRole('link', { name: 'Players and bets' }).click();
    await page.getByLabel('Id', { exact: true }).fill('console-lookup');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('table', { name: 'Bets' }).waitFor();
    assert.match(page.url(), /\/admin\/bets\?externalPlayerId=console-lookup$/);
    await page.getByRole('button', { name: placed.body.bet.id }).click();
    await page.getByRole('dialog').getByText(`bet:${placed.body.bet.id}`).waitFor();
    await noSeriousViolations(page, 'bet');
    await shoot(page, 'bet');
    await page.close();
  });

  it('an operator edits the embed origins (an origin with a path is refused beside the field) and rotates the key', async () => {
    // a casino of this test's own: after the rotation, the book's tenant could open no player session with its key
    const own = await createTenant(stack.t, stack.book.admin, { name: 'Settings Casino', walletUrl: stack.wallet.url });
    const page = await signedIn('operator', { tenantId: own.tenantId });
    await page.getByRole('link', { name: 'Settings' }).click();
    const origins = page.getByLabel('Embed origins');
    await origins.fill('https://casino.console.test/lobby');
    await page
      .getByRole('region', { name: 'Where the sportsbook may be embedded' })
      .getByRole('button', { name: 'Save' })
      .click();
    await page.locator('.field', { has: origins }).locator('.field-error').waitFor();
    await origins.fill('https://casino.console.test');
    await page
      .getByRole('region', { name: 'Where the sportsbook may be embedded' })
      .getByRole('button', { name: 'Save' })
      .click();
    await page.getByRole('region', { name: 'Where the sportsbook may be embedded' }).getByText('Saved.').waitFor();
    const tenant = await stack.t.request('GET', `/api/v1/admin/tenant?tenantId=${own.tenantId}`, {
      token: stack.book.admin,
    });
    assert.deepEqual(tenant.body.tenant.embedOrigins, ['https://casino.console.test']);
    await noSeriousViolations(page, 'settings');
    await shoot(page, 'settings');

    await page.getByRole('button', { name: 'Rotate integration key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    const key = await page.getByRole('dialog').getByLabel('New integration API key').inputValue();
    assert.ok(key.length > 20);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    assert.equal(await page.getByText(key).count(), 0);
    // the casino's server opens player sessions with the new key, no longer with the old one
    const player = { externalPlayerId: 'settings-player' };
    assert.equal((await openSession(stack.t, { ...own, apiKey: key }, player)).status, 200);
    assert.equal((await openSession(stack.t, own, player)).status, 401);
    await page.close();
  });

  it('a platform administrator creates an operator account, disables it, and searches the clients', async () => {
    const page = await signedIn('platform_admin');
    await page.getByRole('link', { name: 'Staff' }).click();
    await page.getByRole('button', { name: 'New account' }).click();
    const dialog = page.getByRole('dialog', { name: 'New account' });
    await dialog.getByLabel('E-mail').fill('new.operator@console.test');
    await dialog.getByLabel('Temporary password').fill(STAFF_PASSWORD);
    await dialog.getByLabel('Role').selectOption('operator');
    await dialog.getByLabel('Tenant (operators)').fill('tn_missing');
    await dialog.getByRole('button', { name: 'New account' }).click();
    await dialog.locator('.field-error').waitFor();
    await dialog.getByLabel('Tenant (operators)').fill(stack.tenantId);
    await dialog.getByRole('button', { name: 'New account' }).click();
    const row = page.getByRole('row', { name: /new\.operator@console\.test/ });
    await row.getByText('At next sign-in').waitFor();
    await noSeriousViolations(page, 'staff');
    await shoot(page, 'staff');
    await row.getByRole('button', { name: 'Disable: new.operator@console.test' }).click();
    await page.getByRole('dialog', { name: 'Disable' }).getByLabel('Reason').fill('left the company');
    await page.getByRole('dialog', { name: 'Disable' }).getByRole('button', { name: 'Disable' }).click();
    await row.getByText('Disabled').waitFor();

    // two casinos registered by an aggregator, newest first until the Created header turns the order
    const base = stack.wallet.url.replace(/\/$/, '');
    const wallets = { production: { url: `${base}/production` }, sandbox: { url: `${base}/sandbox` } };
    const aggregator = await setUpAggregator(
      stack.t,
      { production: stack.wallet, sandbox: stack.wallet },
      {
        authorization: { walletOrigins: [new URL(stack.wallet.url).origin] },
      },
    );
    for (const name of ['First Casino', 'Second Casino']) {
      const created = await aggregator.call('POST', '/clients', createClientBody(wallets, { name }));
      assert.equal(created.status, 201, created.text);
      stack.t.clock.advance(1000);
    }
    await page.getByRole('link', { name: 'Clients' }).click();
    const names = () => page.locator('tbody tr td:first-child a').allTextContents();
    await page.getByRole('link', { name: 'Second Casino' }).waitFor();
    assert.deepEqual((await names()).slice(0, 2), ['Second Casino', 'First Casino']);
    await page.getByRole('button', { name: /^Created, newest first/ }).click();
    await page.waitForURL(/order=oldest/);
    await page.locator('tbody tr:first-child', { hasText: 'First Casino' }).waitFor();
    assert.deepEqual((await names()).slice(0, 2), ['First Casino', 'Second Casino']);
    await noSeriousViolations(page, 'clients');
    await shoot(page, 'clients');
    await page.getByRole('link', { name: 'First Casino' }).click();
    await page.getByRole('heading', { level: 1, name: 'First Casino' }).waitFor();
    await page.getByRole('heading', { name: 'Activation history' }).waitFor();
    await noSeriousViolations(page, 'client');
    await shoot(page, 'client');

    await page.getByRole('link', { name: 'Clients' }).click();
    await page.getByLabel('Search').fill('no such client');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No client matches these filters.').waitFor();
    assert.match(page.url(), /\/admin\/clients\?q=no\+such\+client$/);
    await noSeriousViolations(page, 'clients');
    await page.close();
  });

  it('a platform administrator keeps the tenant they opened from one screen to the next', async () => {
    const page = await signedIn('platform_admin');
    await page.getByRole('link', { name: 'Adjustments' }).click();
    await page.getByText('Choose the tenant to work on.').waitFor();
    await page.getByLabel('Tenant', { exact: true }).fill(stack.tenantId);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('button', { name: 'New adjustment' }).waitFor();
    for (const screen of ['Financial delivery', 'Players and bets', 'Settings', 'Adjustments']) {
      await page.getByRole('link', { name: screen }).click();
      assert.equal(await page.getByLabel('Tenant', { exact: true }).inputValue(), stack.tenantId, screen);
      assert.equal(await page.getByText('Choose the tenant to work on.').count(), 0, screen);
    }
    await page.close();
  });

  it('the GGR report and the audit log show what happened, with CSV downloads', async () => {
    const event = await stack.newEvent('Report Rovers', 'Ledger Town');
    const token = await playerWithBalance(stack.t, stack.book, stack.wallet, 'console-report', 50_00);
    const placed = await stack.t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 5_00, legs: [{ selectionId: event.home, odds: '2.10' }] },
    });
    assert.equal(placed.status, 201, placed.text);
    const page = await signedIn('platform_admin');
    await page.getByRole('link', { name: 'GGR report' }).click();
    await page.getByRole('heading', { level: 1, name: 'GGR report' }).waitFor();
    // each tenant by its name, a chart that says its scale, and the CSV's units said before it is downloaded
    await page.getByRole('heading', { level: 2, name: /^Sol Casino · BRL/ }).waitFor();
    await page
      .getByText(/^Days from .* \(left\) to .* \(right\)\. Above the line the book won/)
      .first()
      .waitFor();
    await page.getByText(/amounts are whole minor units of the currency/).waitFor();
    await noSeriousViolations(page, 'report');
    await shoot(page, 'report');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    assert.match((await download).suggestedFilename(), /^ggr-all-/);
    // an operator's file is named after their tenant
    const operator = await signedIn('operator', { tenantId: stack.tenantId });
    await operator.getByRole('link', { name: 'GGR report' }).click();
    const theirs = operator.waitForEvent('download');
    await operator.getByRole('button', { name: 'Download CSV' }).click();
    assert.match((await theirs).suggestedFilename(), new RegExp(`^ggr-${stack.tenantId}-`));
    await operator.close();

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Action').fill('staff.');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('table', { name: 'Audit entries' }).getByText('staff.login').first().waitFor();
    await noSeriousViolations(page, 'audit');
    await shoot(page, 'audit');
    await page.close();
  });

  it('speaks Portuguese when a staff member chooses it, in the same session, and remembers it for the next visit', async () => {
    // an open bet of R$ 1.234,56 on an event of this test's own: its risk panel shows exactly that
    const event = await stack.newEvent('Recife Rovers', 'Lisboa City');
    const token = await playerWithBalance(stack.t, stack.book, stack.wallet, 'console-idioma', 2_000_00);
    const placed = await stack.t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 1_234_56, legs: [{ selectionId: event.home, odds: '2.10' }] },
    });
    assert.equal(placed.status, 201, placed.text);
    const page = await signedIn('platform_admin');
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    // the switch is the browser's own select: the keyboard moves it to the next language, Português (Brasil)
    await page.getByLabel('Language').press('ArrowDown');
    await page.getByRole('heading', { level: 1, name: 'Início' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'pt-BR');
    assert.equal(await page.title(), 'Início · Console Bookmaker');
    assert.equal(await page.getByLabel('Idioma').inputValue(), 'pt-BR');
    await page
      .getByRole('navigation', { name: 'Menu do console' })
      .getByRole('link', { name: 'Mesa de trading' })
      .waitFor();
    // today's stakes as Brazil writes money: R$, a dot between thousands, a comma before the cents
    const today = page.getByRole('region', { name: 'Hoje (UTC)' });
    await today.getByRole('columnheader', { name: 'Valores apostados', exact: true }).waitFor();
    assert.match(
      await today.locator('td[data-label="Valores apostados"]').first().innerText(),
      /^R\$\s\d{1,3}(\.\d{3})+,\d{2}$/,
    );
    await noSeriousViolations(page, 'home in Portuguese');
    await shoot(page, 'pt-BR-home');

    // the session is the same one (the token lives in memory only): the console goes on without a sign-in
    await page.getByRole('link', { name: 'Mesa de trading' }).click();
    await page.getByLabel('Buscar eventos').fill('Recife Rovers');
    await page.getByLabel('Buscar eventos').press('Enter');
    await page.getByRole('link', { name: /^Recife Rovers/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Recife Rovers – Lisboa City' }).waitFor();
    const risk = page.getByRole('region', { name: 'Risco' });
    await risk.getByText(/^Valores em aberto: R\$\s1\.234,56$/).waitFor();
    // when it starts, as Brazil writes a date: "30 de nov. de 2026, 18:00"
    await page.getByText(/· \d{1,2} de [a-zç]{3,4}\.? de \d{4}, \d{2}:\d{2}$/).waitFor();
    await page.getByRole('button', { name: 'Liquidar', exact: true }).waitFor();
    await noSeriousViolations(page, 'trading event in Portuguese');
    await shoot(page, 'pt-BR-trading-event');

    // a platform administrator's tenant bounds, in the tenant's money as Brazil writes it
    await page.getByRole('link', { name: 'Ajustes' }).click();
    await page.getByLabel('Tenant', { exact: true }).fill(stack.tenantId);
    await page.getByRole('button', { name: 'Abrir', exact: true }).click();
    await page.getByText(/um ajuste acima de R\$\s1\.000,00 espera por um segundo membro da equipe/).waitFor();
    await noSeriousViolations(page, 'adjustments in Portuguese');
    await shoot(page, 'pt-BR-adjustments');

    // the GGR report, what the wallet collected and what was written off apart, and the workspace's queue
    await page.getByRole('link', { name: 'Relatório de GGR' }).click();
    await page.getByRole('heading', { level: 1, name: 'Relatório de GGR' }).waitFor();
    await page.getByRole('columnheader', { name: 'Baixado como perda', exact: true }).first().waitFor();
    await noSeriousViolations(page, 'GGR report in Portuguese');
    await shoot(page, 'pt-BR-ggr');
    await page.getByRole('link', { name: 'Entrega financeira' }).click();
    await page.getByRole('heading', { level: 1, name: 'Entrega financeira e exceções' }).waitFor();
    await noSeriousViolations(page, 'workspace in Portuguese');
    await shoot(page, 'pt-BR-workspace');

    // signed out and back another day: the sign-in page speaks the language chosen (kept in localStorage)
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByText('Você saiu.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Entrar no console' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'pt-BR');
    await noSeriousViolations(page, 'sign-in in Portuguese');
    await shoot(page, 'pt-BR-sign-in');
    await page.close();

    // a browser in Spanish (Mexico) starts in Spanish, until its staff member chooses another language
    const spanish = await browser.newPage({ viewport: MOBILE, locale: 'es-MX' });
    await spanish.goto(`${stack.url}/admin`);
    await spanish.getByRole('heading', { name: 'Inicia sesión en la consola' }).waitFor();
    assert.equal(await spanish.evaluate(() => document.documentElement.lang), 'es');
    await spanish.getByLabel('Idioma').selectOption('en');
    await spanish.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await spanish.close();
  });
});

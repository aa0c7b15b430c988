// The sportsbook embedded the way a casino does it: a host page on its own origin loads /embed/v1.js and mounts the
// iframe app with the SDK, in headless Chromium against the real service and the reference wallet. What the host
// sees (events through the SDK), what it can do (commands), and what nobody else can.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame, Page, Request } from 'playwright-core';
import { browserUnavailable, launchBrowser, SCREENSHOTS } from './helpers/browser.ts';
import { startHostPage, type HostPage } from './helpers/host.ts';
import { startStack, type Stack } from './helpers/stack.ts';

const skip = browserUnavailable();
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };
/** Brazil: the idle timeout of the test tenant's sessions. */
const IDLE_TIMEOUT_MS = 30 * 60_000;

let stack: Stack;
let browser: Browser;
let host: HostPage;
let outsider: HostPage;
let players = 0;

before(async () => {
  if (skip) return;
  stack = await startStack({ demo: false });
  host = await startHostPage(stack.url);
  outsider = await startHostPage(stack.url);
  const allowed = await stack.t.request('PUT', `/api/v1/admin/tenant?tenantId=${stack.tenantId}`, {
    token: stack.book.admin,
    body: { embedOrigins: [host.origin] },
  });
  assert.equal(allowed.status, 200, allowed.text);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await host?.close();
  await outsider?.close();
  await stack?.close();
});

interface HostEvent {
  type: string;
  payload: Record<string, unknown>;
}

/** A host page mounting the sportsbook; every request the browser makes is kept for the token checks. */
async function mount(options: Record<string, unknown>, viewport = DESKTOP, style?: string) {
  const page = await browser.newPage({ viewport });
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  await page.goto(host.url({ url: stack.url, tenant: stack.tenantId, locale: 'en', ...options }, style));
  return { page, requests };
}

const events = (page: Page) => page.evaluate(() => (window as unknown as { events: HostEvent[] }).events);

/** Waits until the host has received an event of this type (after `from` events), and returns it. */
async function received(page: Page, type: string, from = 0): Promise<HostEvent> {
  await page.waitForFunction(
    ([wanted, skipped]) =>
      (window as unknown as { events: HostEvent[] }).events.slice(skipped).some((event) => event.type === wanted),
    [type, from] as const,
    { timeout: 20_000 },
  );
  return (await events(page)).slice(from).find((event) => event.type === type)!;
}

const sportsbookFrame = async (page: Page): Promise<Frame> => {
  const element = await page.waitForSelector('#sportsbook iframe');
  return (await element.contentFrame())!;
};

const command = (page: Page, script: string) => page.evaluate(`window.sportsbook.${script}`);

async function playerLaunch(balance = 100_000) {
  const id = `embed-player-${(players += 1)}`;
  return { id, launchToken: await stack.launchToken(id, { balance }) };
}

async function placeSingle(frame: Frame, selectionId: string, stake: string) {
  await frame.locator(`[data-selection="${selectionId}"]`).first().click();
  const slip = frame.getByRole('complementary', { name: 'Bet slip' });
  await slip.getByRole('textbox').first().fill(stake);
  await slip.getByRole('button', { name: /Place bet/ }).click();
  await slip.getByText('Bet placed').waitFor();
  await slip.getByRole('button', { name: 'Done' }).click();
}

describe('the embedded sportsbook, seen from the casino page', { skip: skip ?? false }, () => {
  it('mounts and launches: ready, then the balance; launch leaves the iframe address at once', async () => {
    const { launchToken } = await playerLaunch(123_45);
    const { page } = await mount({ launchToken });
    const ready = await received(page, 'ready');
    assert.equal(ready.payload.loggedIn, true);
    assert.equal(ready.payload.currency, 'BRL');
    const balance = await received(page, 'balance_changed');
    assert.deepEqual(balance.payload, { balance: 123_45, currency: 'BRL' });
    const frame = await sportsbookFrame(page);
    assert.ok(!frame.url().includes('launch='), frame.url());
    assert.equal(await page.locator('#sportsbook iframe').getAttribute('title'), 'Sportsbook');
    await page.close();
  });

  it('navigates by command and by deep link, and reports an unknown path with an error', async () => {
    const event = stack.book.events[0]!;
    const { page } = await mount({ path: `/event/${event.id}` });
    const first = await received(page, 'route');
    assert.equal(first.payload.path, `/event/${event.id}`);
    const seen = (await events(page)).length;
    await command(page, "navigate('/live')");
    assert.equal((await received(page, 'route', seen)).payload.path, '/live');
    const later = (await events(page)).length;
    await command(page, "navigate('/nowhere/at/all')");
    assert.equal((await received(page, 'error', later)).payload.code, 'invalid_path');
    await page.close();
  });

  it('a single and an accumulator reach the host as bet_placed and balance_changed; settling sends bet_settled', async () => {
    const { launchToken } = await playerLaunch(100_000);
    const { page } = await mount({ launchToken });
    await received(page, 'balance_changed');
    const frame = await sportsbookFrame(page);
    const [first, second] = stack.book.events;

    let seen = (await events(page)).length;
    await placeSingle(frame, first!.home, '10');
    const single = await received(page, 'bet_placed', seen);
    assert.deepEqual(
      { stake: single.payload.stake, currency: single.payload.currency, legs: single.payload.legs },
      { stake: 10_00, currency: 'BRL', legs: 1 },
    );
    assert.deepEqual((await received(page, 'balance_changed', seen)).payload, { balance: 990_00, currency: 'BRL' });

    seen = (await events(page)).length;
    await frame.locator(`[data-selection="${first!.draw}"]`).first().click();
    await frame.locator(`[data-selection="${second!.away}"]`).first().click();
    const slip = frame.getByRole('complementary', { name: 'Bet slip' });
    await slip.getByRole('radio', { name: 'Accumulator' }).click();
    await slip.getByLabel('Stake', { exact: true }).fill('5');
    await slip.getByRole('button', { name: /Place bet/ }).click();
    await slip.getByText('Bet placed').waitFor();
    assert.equal((await received(page, 'bet_placed', seen)).payload.legs, 2);

    seen = (await events(page)).length;
    assert.equal((await stack.settle(first!, 'home')).status, 200);
    const settled = await received(page, 'bet_settled', seen);
    assert.deepEqual(
      { betId: settled.payload.betId, status: settled.payload.status, payout: settled.payload.payout },
      { betId: single.payload.betId, status: 'won', payout: 21_00 },
    );
    await page.close();
  });

  it('refresh_balance is answered with balance_changed; deposit and log-in go to the host', async () => {
    const { id, launchToken } = await playerLaunch(50_00);
    const { page } = await mount({ launchToken });
    await received(page, 'balance_changed');
    await stack.wallet.addPlayer(id, 75_00, 'BRL');
    const seen = (await events(page)).length;
    await command(page, 'refreshBalance()');
    assert.deepEqual((await received(page, 'balance_changed', seen)).payload, { balance: 75_00, currency: 'BRL' });
    const frame = await sportsbookFrame(page);
    await frame.getByRole('button', { name: 'Deposit' }).click();
    assert.deepEqual((await received(page, 'deposit_requested', seen)).payload, { currency: 'BRL' });
    await page.close();

    const anonymous = await mount({});
    await received(anonymous.page, 'ready');
    const anonymousFrame = await sportsbookFrame(anonymous.page);
    await anonymousFrame.getByRole('button', { name: 'Log in' }).click();
    assert.deepEqual((await received(anonymous.page, 'login_required')).payload, { reason: 'login_button' });
    await anonymous.page.close();
  });

  it('an expired session calls onSessionExpired, and the fresh launch token logs the player back in', async () => {
    const { id, launchToken } = await playerLaunch(40_00);
    const { page } = await mount({ launchToken });
    await received(page, 'balance_changed');
    let asked = 0;
    await page.exposeFunction('freshLaunchToken', async () => {
      asked += 1;
      return stack.launchToken(id);
    });
    stack.t.clock.advance(IDLE_TIMEOUT_MS + 60_000);
    const seen = (await events(page)).length;
    await command(page, 'refreshBalance()');
    assert.equal((await received(page, 'session_expired', seen)).payload.reason, 'expired');
    assert.deepEqual((await received(page, 'balance_changed', seen)).payload, { balance: 40_00, currency: 'BRL' });
    assert.equal(asked, 1);
    await page.close();
  });

  it("a player who leaves the sportsbook open still times out: the app's own polls are not activity", async () => {
    const { id, launchToken } = await playerLaunch(40_00);
    const { page } = await mount({ launchToken, path: '/my-bets' });
    await received(page, 'balance_changed');
    const polled = () =>
      stack.t.db
        .selectFrom('player_sessions')
        .innerJoin('players', 'players.id', 'player_sessions.player_id')
        .select('player_sessions.last_activity_at')
        .where('players.external_id', '=', id)
        .executeTakeFirstOrThrow();
    const before = (await polled()).last_activity_at;
    stack.t.clock.advance(IDLE_TIMEOUT_MS - 60_000);
    await page.waitForTimeout(6_000); // My Bets polls its open bets and offers every 5 s
    assert.deepEqual((await polled()).last_activity_at, before, 'the polls did not count as activity');
    const seen = (await events(page)).length;
    stack.t.clock.advance(2 * 60_000);
    assert.equal((await received(page, 'session_expired', seen)).payload.reason, 'expired');
    await page.close();
  });

  it('a launch token already used ends in error (its code) then session_expired, and the player browses anonymously', async () => {
    const { launchToken } = await playerLaunch();
    const first = await mount({ launchToken });
    await received(first.page, 'balance_changed');
    await first.page.close();

    const { page } = await mount({ launchToken });
    const error = await received(page, 'error');
    assert.equal(error.payload.code, 'launch_token_used');
    const all = await events(page);
    const errorAt = all.findIndex((event) => event.type === 'error');
    const expiredAt = all.findIndex((event) => event.type === 'session_expired');
    assert.ok(expiredAt > errorAt, 'session_expired follows the error');
    assert.equal(all[expiredAt]!.payload.reason, 'launch_failed');
    assert.equal((await received(page, 'ready')).payload.loggedIn, false);
    await page.close();
  });

  it('no token travels in a URL or a Referer, except the launch token in the iframe address the casino built', async () => {
    const { launchToken } = await playerLaunch();
    const { page, requests } = await mount({ launchToken });
    await received(page, 'balance_changed');
    const session = await (await sportsbookFrame(page)).evaluate(() => JSON.stringify({ ...sessionStorage }));
    const sessionToken = /bm_sess_[\w-]+/.exec(session)?.[0];
    assert.ok(sessionToken, `the iframe keeps its session in sessionStorage: ${session}`);
    const framing = requests.filter((request) => request.url().includes('launch='));
    assert.equal(framing.length, 1, 'only the iframe document itself is requested with launch');
    assert.equal(framing[0]!.resourceType(), 'document');
    for (const request of requests) {
      const referer = (await request.allHeaders()).referer ?? '';
      for (const secret of [launchToken, sessionToken]) {
        assert.ok(!referer.includes(secret), `Referer of ${request.url()} carries a token`);
        if (request !== framing[0]) assert.ok(!request.url().includes(secret), `${request.url()} carries a token`);
      }
    }
    await page.close();
  });

  it('height auto grows the iframe to its content; fill keeps it to the container', async () => {
    const auto = await mount({ height: 'auto' }, DESKTOP, 'height: auto');
    await received(auto.page, 'resize');
    // The content may grow in steps (each reported): the iframe ends at the height of the last report.
    const height = await auto.page.waitForFunction(() => {
      const resizes = (window as unknown as { events: HostEvent[] }).events.filter((event) => event.type === 'resize');
      const last = Number(resizes.at(-1)?.payload.height);
      const shown = document.querySelector('#sportsbook iframe')!.getBoundingClientRect().height;
      return shown === last ? last : false;
    });
    assert.ok(Number(await height.jsonValue()) > 200, 'the iframe grew to its content');
    await auto.page.screenshot({ path: join(SCREENSHOTS, 'embed-auto-1280.png'), fullPage: true });
    await auto.page.close();

    const fill = await mount({}, MOBILE, 'height: calc(100vh - 56px)');
    await received(fill.page, 'ready');
    const box = await fill.page.locator('#sportsbook iframe').boundingBox();
    assert.equal(Math.round(box!.height), MOBILE.height - 56);
    const frame = await sportsbookFrame(fill.page);
    assert.ok(await frame.getByRole('navigation', { name: 'Main' }).isVisible(), 'the bottom navigation is in view');
    await fill.page.screenshot({ path: join(SCREENSHOTS, 'embed-fill-mobile.png') });
    await fill.page.close();
  });
});

describe('a page outside the embed origins', { skip: skip ?? false }, () => {
  it('cannot frame the sportsbook: the browser blocks it by frame-ancestors', async () => {
    const page = await browser.newPage();
    const blocked = page.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
    await page.goto(outsider.url({ url: stack.url, tenant: stack.tenantId }));
    await blocked;
    const frame = await sportsbookFrame(page);
    assert.equal(await frame.locator('#app').count(), 0, 'no sportsbook inside the refused frame');
    await page.waitForTimeout(500);
    assert.deepEqual(await events(page), [], 'nothing reaches the refused host');
    await page.close();
  });

  it('cannot command a sportsbook it opened in a window of its own', async () => {
    const page = await browser.newPage();
    await page.goto(`${outsider.origin}/blank`);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.evaluate((url) => void window.open(url, 'sportsbook'), `${stack.url}/?tenant=${stack.tenantId}&locale=en`),
    ]);
    await popup.getByRole('heading').first().waitFor();
    const before = popup.url();
    await page.evaluate(
      (target) =>
        window
          .open('', 'sportsbook')!
          .postMessage({ source: 'bookmaker-host', v: 1, type: 'navigate', payload: { path: '/live' } }, target),
      stack.url,
    );
    await popup.waitForTimeout(1_000);
    assert.equal(popup.url(), before);
    assert.equal(await popup.getByRole('heading', { level: 1, name: 'Live betting' }).count(), 0);
    await popup.close();
    await page.close();
  });
});

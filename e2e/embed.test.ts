// The sportsbook embedded the way a casino does it: a host page on its own origin loads /embed/v1.js and mounts the
// iframe app with the SDK, in headless Chromium against the real service and the reference wallet. What the host
// sees (events through the SDK), what it can do (commands), and what nobody else can.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Frame, Page, Request } from 'playwright-core';
import { seriousViolations } from './helpers/axe.ts';
import { SCREENSHOTS } from './helpers/browser.ts';
import { stackAndBrowser } from './helpers/fixture.ts';
import { startHostPage, type HostPage } from './helpers/host.ts';
import { pixelsOf } from './helpers/pixels.ts';

// two casino pages: one on an embed origin, one elsewhere
let host: HostPage;
let outsider: HostPage;
const { stack, browser, skip } = stackAndBrowser({ demo: false }, async (started) => {
  [host, outsider] = await Promise.all([startHostPage(started.url), startHostPage(started.url)]);
  await started.setEmbedOrigins([host.origin]);
});
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };
/** Brazil: the idle timeout of the test tenant's sessions. */
const IDLE_TIMEOUT_MS = 30 * 60_000;

let players = 0;

after(async () => {
  await host?.close();
  await outsider?.close();
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

describe('the embedded sportsbook, seen from the casino page', { skip }, () => {
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
    // events of this test's own: it settles one
    const first = await stack.newEvent('Internacional', 'Fluminense');
    const second = await stack.newEvent('Corinthians', 'São Paulo');
    const { launchToken } = await playerLaunch(100_000);
    const { page } = await mount({ launchToken });
    await received(page, 'balance_changed');
    const frame = await sportsbookFrame(page);

    let seen = (await events(page)).length;
    await placeSingle(frame, first.home, '10');
    const single = await received(page, 'bet_placed', seen);
    assert.deepEqual(
      { stake: single.payload.stake, currency: single.payload.currency, legs: single.payload.legs },
      { stake: 10_00, currency: 'BRL', legs: 1 },
    );
    assert.deepEqual((await received(page, 'balance_changed', seen)).payload, { balance: 990_00, currency: 'BRL' });

    seen = (await events(page)).length;
    await frame.locator(`[data-selection="${first.draw}"]`).first().click();
    await frame.locator(`[data-selection="${second.away}"]`).first().click();
    const slip = frame.getByRole('complementary', { name: 'Bet slip' });
    // the slip offers the singles and the accumulator of the same selections: a stake on the accumulator only
    await slip
      .getByRole('region', { name: /^Accumulator/ })
      .getByLabel('Stake', { exact: true })
      .fill('5');
    await slip.getByRole('button', { name: /Place bet/ }).click();
    await slip.getByText('Bet placed').waitFor();
    assert.equal((await received(page, 'bet_placed', seen)).payload.legs, 2);

    seen = (await events(page)).length;
    assert.equal((await stack.settle(first, 'home')).status, 200);
    // both bets settle at once, pushed in either order: the single's
    await page.waitForFunction(
      ([skipped, betId]) =>
        (window as unknown as { events: HostEvent[] }).events
          .slice(skipped)
          .some((event) => event.type === 'bet_settled' && event.payload.betId === betId),
      [seen, single.payload.betId] as const,
      { timeout: 20_000 },
    );
    const settled = (await events(page))
      .slice(seen)
      .find((event) => event.type === 'bet_settled' && event.payload.betId === single.payload.betId)!;
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

  it("a player who leaves the sportsbook open still times out: the app's own reads and stream are not activity", async () => {
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
    await (await sportsbookFrame(page)).getByText('You have no open bets.').waitFor();
    const before = (await polled()).last_activity_at;
    stack.t.clock.advance(IDLE_TIMEOUT_MS - 60_000);
    // the open bets follow the change stream meanwhile (its sweep looks at the session on the clock moved on)
    await page.waitForTimeout(2_000);
    assert.deepEqual((await polled()).last_activity_at, before, 'the stream did not count as activity');
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

/** A light casino in green and yellow: its primary already reads on white, so it is used as it is. */
const GREEN = {
  primary: '#1b6e34',
  accent: '#ffd400',
  background: '#eef6ea',
  radius: 4,
  fontFamily: 'humanist',
};
const PURPLE = { mode: 'dark', primary: '#8b5cf6', accent: '#ffc933', background: '#120a26', radius: 12 };

const rootToken = (frame: Frame, name: string) =>
  frame.evaluate((token) => getComputedStyle(document.documentElement).getPropertyValue(token).trim(), name);

/** `#rrggbb` as getComputedStyle writes it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(', ')})`;

/** How far apart two #rrggbb colours' hues are, in degrees: a colour mixed toward white or black keeps its hue. */
function hueApart(a: string, b: string): number {
  const hue = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255) as [number, number, number];
    const [max, min] = [Math.max(r, g, b), Math.min(r, g, b)];
    if (max === min) return 0;
    const sector =
      max === r ? (g - b) / (max - min) : max === g ? (b - r) / (max - min) + 2 : (r - g) / (max - min) + 4;
    return (sector * 60 + 360) % 360;
  };
  const apart = Math.abs(hue(a) - hue(b));
  return Math.min(apart, 360 - apart);
}

const styleOf = (frame: Frame, selector: string, properties: string[]) =>
  frame
    .locator(selector)
    .first()
    .evaluate((element, names) => names.map((name) => getComputedStyle(element).getPropertyValue(name)), properties);

describe('mount options: theme, header, odds format', { skip }, () => {
  it('a theme is applied as custom properties on the root, and the pages are drawn with them', async () => {
    const { page } = await mount({ path: '/my-bets', theme: GREEN }, MOBILE);
    await received(page, 'ready');
    const frame = await sportsbookFrame(page);
    const login = frame.getByRole('main').getByRole('button', { name: 'Log in' });
    await login.waitFor();
    assert.deepEqual(
      await Promise.all(
        ['--bm-color-accent', '--bm-color-accent-text', '--bm-color-highlight', '--bm-color-bg', '--bm-radius-md'].map(
          (name) => rootToken(frame, name),
        ),
      ),
      ['#1b6e34', '#ffffff', '#ffd400', '#eef6ea', '4px'],
    );
    assert.match(await rootToken(frame, '--bm-font-family'), /^Seravek,/);
    // the primary button
    assert.deepEqual(await styleOf(frame, 'main .btn.primary', ['background-color', 'color', 'border-radius']), [
      'rgb(27, 110, 52)',
      'rgb(255, 255, 255)',
      '4px',
    ]);
    assert.match((await styleOf(frame, 'main .btn.primary', ['font-family']))[0]!, /^Seravek,/);
    assert.deepEqual(await styleOf(frame, 'body', ['background-color']), ['rgb(238, 246, 234)']);
    // the navigation: a deep shade of the primary colour, not the default navy
    const header = await rootToken(frame, '--bm-color-header');
    assert.notEqual(header, '#0c1a2b');
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(header.slice(at, at + 2), 16));
    assert.ok(g! > r! && g! > b! && g! < 80, `a dark green: ${header}`);
    assert.deepEqual(
      (await events(page)).filter((event) => event.type === 'error'),
      [],
    );
    assert.deepEqual(await seriousViolations(page), []);
    await page.close();
  });

  it('two themes, at 390 and 1280 px: a light green and yellow casino, a dark purple one (screenshots)', async () => {
    const [first] = stack.book.events;
    const themes = [
      { name: 'green', theme: GREEN, mode: 'light' },
      { name: 'purple', theme: PURPLE, mode: 'dark' },
    ];
    const drawn = new Map<string, { background: string; accent: string; header: string }>();
    for (const { name, theme, mode } of themes) {
      for (const viewport of [MOBILE, DESKTOP]) {
        const where = `${name} at ${viewport.width}`;
        const { page } = await mount({ theme }, viewport, 'height: calc(100vh - 56px)');
        await received(page, 'ready');
        const frame = await sportsbookFrame(page);
        await frame.locator(`[data-selection="${first!.home}"]`).first().click();
        await frame.locator('.odds.selected').first().waitFor();
        // animations disabled: the selected price's transition is run to its end
        const png = await page.screenshot({
          path: join(SCREENSHOTS, `theme-${name}-${viewport.width}.png`),
          animations: 'disabled',
        });
        assert.deepEqual(
          (await events(page)).filter((event) => event.type === 'error'),
          [],
          `${where}: nothing refused`,
        );

        // the theme on the root: its mode, and its background, accent and radius as given
        assert.equal(await frame.evaluate(() => document.documentElement.dataset.mode), mode, where);
        const [background, highlight, radius, accent, header] = await Promise.all(
          ['--bm-color-bg', '--bm-color-highlight', '--bm-radius-md', '--bm-color-accent', '--bm-color-header'].map(
            (token) => rootToken(frame, token),
          ),
        );
        assert.deepEqual([background, highlight, radius], [theme.background, theme.accent, `${theme.radius}px`], where);
        // the primary colour, made to read (lighter on dark, darker on light), and the header a deep shade of it
        for (const [token, value] of Object.entries({ accent: accent!, header: header! })) {
          assert.ok(hueApart(value, theme.primary) <= 10, `${where}: ${token} ${value} a shade of ${theme.primary}`);
        }
        // the page drawn with them: its background, the selected price, the header
        assert.deepEqual(await styleOf(frame, 'body', ['background-color']), [rgb(background!)], where);
        assert.deepEqual(
          await styleOf(frame, '.odds.selected', ['background-color', 'border-radius']),
          [rgb(accent!), radius],
          where,
        );
        const [topbar] = await styleOf(frame, '.topbar', ['background-image']);
        assert.ok(topbar!.includes(rgb(header!)), `${where}: the header ${topbar}`);

        // and the screenshot shows them: a picture (not blank), the background and the selected price in it
        const pixels = await pixelsOf(page, png, { background: background!, accent: accent! });
        assert.ok(pixels.distinct > 100, `${where}: ${pixels.distinct} colours`);
        assert.ok(pixels.shares.background! > 0.02, `${where}: background ${pixels.shares.background}`);
        assert.ok(pixels.shares.accent! > 0.003, `${where}: the accent (the selected price) ${pixels.shares.accent}`);
        drawn.set(where, { background: background!, accent: accent!, header: header! });
        await page.close();
      }
    }
    // the same theme the same at both widths, and the two themes apart in every colour
    for (const name of ['green', 'purple']) {
      assert.deepEqual(drawn.get(`${name} at ${DESKTOP.width}`), drawn.get(`${name} at ${MOBILE.width}`), name);
    }
    const [green, purple] = [drawn.get(`green at ${MOBILE.width}`)!, drawn.get(`purple at ${MOBILE.width}`)!];
    for (const colour of ['background', 'accent', 'header'] as const) {
      assert.notEqual(green[colour], purple[colour], colour);
    }
  });

  it('dark mode: dark surfaces and light text on every page, with no serious axe violation', async () => {
    const [first, second] = stack.book.events;
    const runs = [
      { theme: { mode: 'dark' }, viewport: DESKTOP, player: false },
      { theme: PURPLE, viewport: MOBILE, player: true },
    ];
    for (const { theme, viewport, player } of runs) {
      const params: Record<string, string> = { locale: 'en' };
      for (const [key, value] of Object.entries(theme)) params[`theme.${key}`] = String(value);
      // no transitions: axe reads each colour as it ends, not halfway
      const page = await browser.newPage({ viewport, reducedMotion: 'reduce' });
      const check = async (what: string) => {
        const found = await seriousViolations(page);
        assert.deepEqual(found, [], `${what} at ${viewport.width}: ${found.join('; ')}`);
      };
      const launch = player ? (await playerLaunch(100_000)).launchToken : undefined;
      await page.goto(stack.appUrl({ ...params, launch }));
      await page.locator(`[data-selection="${first!.home}"]`).first().waitFor();
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), 'dark');
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const channels = background.match(/\d+/g)!.map(Number);
      assert.ok(
        channels.every((channel) => channel < 60),
        `a dark page: ${background}`,
      );
      assert.equal(
        await page.evaluate(() => getComputedStyle(document.body).color),
        'rgb(238, 241, 246)',
        'light text',
      );
      await check('home');
      await page.locator(`[data-selection="${first!.home}"]`).first().click();
      await page.locator(`[data-selection="${second!.away}"]`).first().click();
      if (viewport === MOBILE) {
        await page.getByRole('button', { name: /^Bet slip/ }).click();
        await page.getByRole('dialog').waitFor();
      }
      await check('the bet slip');
      for (const path of ['/live', `/event/${first!.id}`, '/my-bets']) {
        await page.goto(stack.appUrl({ ...params, path }));
        await page.locator('h1').first().waitFor();
        // not 'networkidle': the change stream stays open while the page is shown
        await page.waitForLoadState('load');
        await page.waitForTimeout(500);
        await check(path);
      }
      await page.screenshot({ path: join(SCREENSHOTS, `theme-dark-my-bets-${viewport.width}.png`) });
      await page.close();
    }
  });

  it('a refused theme value or option is an error event naming the field, and its default stays', async () => {
    const theme = { primary: 'red', accent: '#ffd400', background: '#333', radius: 40, fontFamily: 'Comic Sans' };
    const { page } = await mount({ theme, oddsFormat: 'european' });
    await received(page, 'ready');
    const refused = (await events(page))
      .filter((event) => event.type === 'error')
      .map((event) => [event.payload.code, event.payload.field]);
    assert.deepEqual(refused, [
      ['invalid_option', 'oddsFormat'],
      ['invalid_theme', 'theme.background'],
      ['invalid_theme', 'theme.primary'],
      ['invalid_theme', 'theme.radius'],
      ['invalid_theme', 'theme.fontFamily'],
    ]);
    const frame = await sportsbookFrame(page);
    assert.deepEqual(
      await Promise.all(
        ['--bm-color-accent', '--bm-color-highlight', '--bm-color-bg', '--bm-radius-md'].map((name) =>
          rootToken(frame, name),
        ),
      ),
      ['#0a7a43', '#ffd400', '#eef1f6', '8px'],
      'the defaults, and the one good value',
    );
    assert.doesNotMatch(await rootToken(frame, '--bm-font-family'), /Comic/);
    await page.close();

    const dim = await mount({ theme: { mode: 'dim' } });
    await received(dim.page, 'ready');
    const error = (await events(dim.page)).find((event) => event.type === 'error')!;
    assert.deepEqual(error.payload, {
      code: 'invalid_theme',
      field: 'theme.mode',
      message: 'theme.mode must be light or dark, not "dim": the default is kept',
    });
    await dim.page.close();
  });

  it('header: false hides the balance and Deposit; the navigation stays, and a visitor can still log in', async () => {
    const { launchToken } = await playerLaunch(50_00);
    const { page } = await mount({ launchToken, header: false }, MOBILE);
    await received(page, 'balance_changed');
    const frame = await sportsbookFrame(page);
    await frame.getByRole('navigation', { name: 'Main' }).waitFor();
    assert.equal(await frame.locator('.topbar').count(), 0, 'no header on a phone');
    assert.equal(await frame.getByRole('button', { name: 'Deposit' }).count(), 0);
    assert.equal(await frame.getByText('R$50.00').count(), 0, 'no balance');
    assert.equal(await frame.getByRole('button', { name: 'Log in' }).count(), 0, 'logged in: no Log in');
    await page.close();

    for (const viewport of [MOBILE, DESKTOP]) {
      const visitor = await mount({ header: false }, viewport);
      await received(visitor.page, 'ready');
      const visitorFrame = await sportsbookFrame(visitor.page);
      const nav = visitorFrame.getByRole('navigation', { name: 'Main' });
      for (const section of ['Home', 'Live', 'My bets']) {
        assert.ok(await nav.getByRole('button', { name: section }).isVisible(), `${section} at ${viewport.width}`);
      }
      assert.equal(await visitorFrame.locator('.brand').count(), 0, 'no brand');
      await visitorFrame.getByRole('button', { name: 'Log in' }).click();
      assert.deepEqual((await received(visitor.page, 'login_required')).payload, { reason: 'login_button' });
      await visitor.page.screenshot({ path: join(SCREENSHOTS, `embed-no-header-${viewport.width}.png`) });
      await visitor.page.close();
    }
  });

  it('oddsFormat american writes every price as + or - on 100', async () => {
    const { page } = await mount({ oddsFormat: 'american' });
    await received(page, 'ready');
    const frame = await sportsbookFrame(page);
    await frame.locator('.odds:not([disabled]) .odds-price').first().waitFor();
    // open markets only: a settled or suspended one shows a lock, not a price
    const prices = await frame.locator('.odds:not([disabled]) .odds-price').allTextContents();
    assert.ok(prices.length >= 6, `${prices.length} prices`);
    for (const price of prices) assert.match(price, /^[+-]\d+$/);
    await page.close();
  });
});

describe('a page outside the embed origins', { skip }, () => {
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

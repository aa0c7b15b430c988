// The in-memory router (web/src/router.ts): pages, the Back stack, deep links, document titles, `route` events and
// `path` kept in the address.
import assert from 'node:assert/strict';
import { before, describe, it, mock } from 'node:test';
import { event, installBrowser } from './helpers/browser.ts';

const CASINO = 'https://casino.example';
const browser = installBrowser({ url: 'https://sportsbook.example/?tenant=tn_1', ancestorOrigins: [CASINO] });
const { connect } = await import('../src/bridge.ts');
const { back, canGoBack, go, openPath, routeStore, setPageTitle, setSiteName, titleChanged } =
  await import('../src/router.ts');
const { slipOpen } = await import('../src/betslip/slip.ts');
const { localeStore } = await import('../src/i18n/index.ts');

const routes = () =>
  browser
    .take()
    .map(({ message }) => message)
    .filter((message) => (message as { type: string }).type === 'route');

before(() => {
  mock.timers.enable({ apis: ['setTimeout'] });
  connect([CASINO]);
  setSiteName('Sol Casino');
});

describe('navigation', () => {
  it('opens the first page from the address: a known path, else home with an invalid_path error', () => {
    assert.equal(openPath('/nowhere', true), false);
    assert.deepEqual(routeStore.get(), { page: 'home' });
    assert.deepEqual(
      browser.take().map(({ message }) => message),
      [
        event('error', { code: 'invalid_path', message: 'The sportsbook has no page at /nowhere.' }),
        event('route', { path: '/', title: 'Sportsbook' }),
      ],
    );
    assert.equal(browser.document.title, 'Sportsbook · Sol Casino');
    assert.equal(canGoBack.get(), false);
    assert.equal(browser.location.search, '?tenant=tn_1');
  });

  it('goes to a page: the route, a `route` event with its title, the address, and Back', () => {
    slipOpen.set(true);
    go({ page: 'live' });
    assert.deepEqual(routeStore.get(), { page: 'live' });
    assert.deepEqual(routes(), [event('route', { path: '/live', title: 'Live betting' })]);
    assert.equal(browser.document.title, 'Live betting · Sol Casino');
    assert.equal(browser.location.search, '?tenant=tn_1&path=%2Flive');
    assert.equal(canGoBack.get(), true);
    assert.equal(slipOpen.get(), false);

    // the same page again: nothing happens
    go({ page: 'live' });
    assert.deepEqual(browser.take(), []);
  });

  it('announces a page that names itself from its data once it has it, and only once', () => {
    go({ page: 'event', eventId: 'ev_1' });
    assert.deepEqual(routes(), []);
    setPageTitle('Flamengo v Palmeiras');
    assert.deepEqual(routes(), [event('route', { path: '/event/ev_1', title: 'Flamengo v Palmeiras' })]);
    assert.equal(browser.document.title, 'Flamengo v Palmeiras · Sol Casino');
    setPageTitle('Flamengo v Palmeiras (2 - 1)');
    assert.deepEqual(routes(), []);
    assert.equal(browser.document.title, 'Flamengo v Palmeiras (2 - 1) · Sol Casino');
    // and the timer of the 2 s fallback is gone
    mock.timers.tick(5000);
    assert.deepEqual(routes(), []);
  });

  it('announces a page whose data does not come after 2 s with the app name, never the last page title', () => {
    go({ page: 'sport', sportId: 'soccer' });
    assert.equal(browser.document.title, 'Sportsbook · Sol Casino');
    mock.timers.tick(1999);
    assert.deepEqual(routes(), []);
    mock.timers.tick(1);
    assert.deepEqual(routes(), [event('route', { path: '/sport/soccer', title: 'Sportsbook' })]);

    go({ page: 'competition', competitionId: 'cp_1' });
    mock.timers.tick(2000);
    assert.deepEqual(routes(), [event('route', { path: '/competition/cp_1', title: 'Sportsbook' })]);
  });

  it('asks the host to log in when My Bets opens for an anonymous player', () => {
    go({ page: 'my-bets' });
    assert.deepEqual(
      browser.take().map(({ message }) => message),
      [event('route', { path: '/my-bets', title: 'My bets' }), event('login_required', { reason: 'my_bets' })],
    );
  });

  it('goes back through the pages seen, then home', () => {
    const seen: string[] = [];
    routeStore.subscribe((route) => seen.push(route.page));
    back();
    back();
    back();
    assert.equal(canGoBack.get(), true);
    back();
    assert.equal(canGoBack.get(), true);
    back();
    assert.equal(canGoBack.get(), false);
    assert.deepEqual(seen, ['competition', 'sport', 'event', 'live', 'home']);
    assert.equal(browser.location.search, '?tenant=tn_1');
    back();
    assert.deepEqual(routeStore.get(), { page: 'home' });
    assert.equal(canGoBack.get(), false);
    browser.take();
  });

  it('remembers at most 50 pages to go back to', () => {
    for (let n = 1; n <= 60; n++) go({ page: 'event', eventId: `ev_${n}` });
    const back50: string[] = [];
    for (let n = 0; n < 50; n++) {
      back();
      back50.push((routeStore.get() as { eventId?: string }).eventId ?? 'home');
    }
    assert.equal(canGoBack.get(), false);
    assert.deepEqual(back50.slice(0, 2), ['ev_59', 'ev_58']);
    assert.equal(back50.at(-1), 'ev_10');
    browser.take();
    mock.timers.tick(2000);
    browser.take();
  });

  it('follows deep links from the host, and refuses unknown ones', () => {
    assert.equal(openPath('/live/basketball'), true);
    assert.deepEqual(routeStore.get(), { page: 'live', sportId: 'basketball' });
    assert.equal(canGoBack.get(), true);
    assert.equal(openPath('/event/../../admin'), false);
    assert.deepEqual(routeStore.get(), { page: 'live', sportId: 'basketball' });
    assert.deepEqual(
      browser.take().map(({ message }) => message),
      [event('error', { code: 'invalid_path', message: 'The sportsbook has no page at /event/../../admin.' })],
    );
  });

  it('titles the page again in a new language, without another `route` event', () => {
    openPath('/live');
    browser.take();
    localeStore.set('pt-BR');
    titleChanged();
    assert.equal(browser.document.title, 'Apostas ao vivo · Sol Casino');
    assert.deepEqual(browser.take(), []);
    localeStore.set('en');
  });
});

describe('announcements', () => {
  it('announces every navigation once and in order, even two in quick succession', () => {
    go({ page: 'event', eventId: 'ev_a' });
    go({ page: 'event', eventId: 'ev_b' });
    setPageTitle('Bahia v Santos');
    mock.timers.tick(5000);
    assert.deepEqual(routes(), [
      event('route', { path: '/event/ev_a', title: 'Sportsbook' }),
      event('route', { path: '/event/ev_b', title: 'Bahia v Santos' }),
    ]);
  });
});

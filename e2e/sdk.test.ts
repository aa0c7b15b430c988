// The SDK alone, in headless Chromium: a host page on one origin loads the built /embed/v1.js and mounts a fake
// sportsbook served from another origin (a third origin stands for "somewhere else"). The fake posts protocol
// messages when the test tells it to and records every command it receives.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { buildSdk } from '../sdk/build.ts';
import { precompress } from '../scripts/precompress.ts';
import { browserOnly } from './helpers/fixture.ts';

const { browser, skip } = browserOnly();
const V1 = join(import.meta.dirname, '..', 'sdk', 'dist', 'v1.js');
const CALLBACK_NAMES = [
  'onReady',
  'onResize',
  'onRouteChange',
  'onLoginRequired',
  'onSessionExpired',
  'onBalanceChanged',
  'onBetPlaced',
  'onBetSettled',
  'onDepositRequested',
  'onError',
];

/** The host page: #auto (no height of its own) and #fill (500 px) below a 50 px header, then a long page. */
function hostPage(sportsbook: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Host</title></head>
<body style="margin:0">
<div style="height:50px">Casino header</div>
<div id="auto"></div>
<div id="fill" style="height:500px"></div>
<div style="height:3000px"></div>
<script>
  // Counts the page's message listeners, to see destroy() leave none behind.
  window.messageListeners = 0;
  for (const [method, step] of [['addEventListener', 1], ['removeEventListener', -1]]) {
    const original = window[method];
    window[method] = function (type, ...rest) {
      if (type === 'message') messageListeners += step;
      return original.call(this, type, ...rest);
    };
  }
</script>
<script src="/embed/v1.js"></script>
<script>
  window.SB = ${JSON.stringify(sportsbook)};
  window.log = [];
  window.record = (name) => (payload) => { log.push([name, payload]); };
  // Mounts with a recording callback for every event; extra options replace them.
  window.start = (extra = {}, selector = '#fill') => {
    const options = { url: SB, tenant: 'demo' };
    for (const name of ${JSON.stringify(CALLBACK_NAMES)}) options[name] = record(name);
    options.onSessionExpired = (payload) => { log.push(['onSessionExpired', payload]); return null; };
    options.onEvent = (type, payload) => { log.push(['onEvent', type, payload]); };
    return (window.handle = Bookmaker.mount(selector, Object.assign(options, extra)));
  };
</script>
</body></html>`;
}

const FAKE_SPORTSBOOK = `<!doctype html><html><head><meta charset="utf-8"><title>Fake sportsbook</title></head>
<body style="margin:0">Fake sportsbook
<script>
  window.received = [];
  addEventListener('message', (event) => {
    received.push({ origin: event.origin, fromParent: event.source === parent, data: event.data });
  });
  window.emit = (type, payload, extra) =>
    parent.postMessage(Object.assign({ source: 'bookmaker-sportsbook', v: 1, type, payload }, extra), '*');
</script>
</body></html>`;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let host: Server;
let sportsbook: Server;
let elsewhere: Server;
let HOST: string;
let SB: string;
let OTHER: string;

before(async () => {
  if (skip) return;
  await buildSdk({ types: false, log: () => undefined });
  // its compressed forms too, or the server would keep sending none (a form older than the file is never sent)
  precompress(V1);
  const serveFake = (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FAKE_SPORTSBOOK);
  };
  sportsbook = createServer(serveFake);
  SB = await listen(sportsbook);
  elsewhere = createServer(serveFake);
  OTHER = await listen(elsewhere);
  host = createServer((request, response) => {
    if (request.url === '/embed/v1.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(V1));
    } else {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(SB));
    }
  });
  HOST = await listen(host);
});
after(() => {
  for (const server of [host, sportsbook, elsewhere]) server?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const pageErrors = new Map<Page, string[]>();

async function hostWith(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${HOST}/`);
  return page;
}

/** Closes the page; the host page must have had no uncaught error (nor unhandled rejection). */
async function done(page: Page): Promise<void> {
  await page.close();
  assert.deepEqual(pageErrors.get(page), []);
}

/** The frame whose address starts with `prefix`, once its script has run. */
async function frameAt(page: Page, prefix: string): Promise<Frame> {
  for (let i = 0; i < 250; i++) {
    const frame = page.frames().find((f) => f.url().startsWith(prefix));
    if (frame && (await frame.evaluate(() => typeof (globalThis as any).emit === 'function').catch(() => false))) {
      return frame;
    }
    await sleep(20);
  }
  throw new Error(`no frame at ${prefix}`);
}

const sdkFrame = (page: Page) => frameAt(page, `${SB}/?tenant=`);

function emit(frame: Frame, type: string, payload: unknown, extra?: object): Promise<void> {
  return frame.evaluate(([t, p, x]) => (globalThis as any).emit(t, p, x), [type, payload, extra] as const);
}

const hostLog = (page: Page): Promise<unknown[][]> => page.evaluate(() => (globalThis as any).log);
const received = (frame: Frame): Promise<any[]> => frame.evaluate(() => (globalThis as any).received);

async function logLength(page: Page, n: number): Promise<unknown[][]> {
  await page.waitForFunction((length) => (globalThis as any).log.length >= length, n, { timeout: 5000 });
  return hostLog(page);
}

async function receivedLength(frame: Frame, n: number): Promise<any[]> {
  await frame.waitForFunction((length) => (globalThis as any).received.length >= length, n, { timeout: 5000 });
  return received(frame);
}

const READY = { locale: 'en', height: 'fill', path: '/', loggedIn: false, currency: 'BRL' };

describe('the SDK (/embed/v1.js) in a browser', { skip }, () => {
  it('mount: option defaults, iframe attributes and address parameters', async () => {
    const page = await hostWith();
    const plain = await page.evaluate(() => {
      const w = globalThis as any;
      const handle = w.start();
      const { iframe } = handle;
      const box = iframe.getBoundingClientRect();
      return {
        src: iframe.src,
        title: iframe.title,
        allow: iframe.getAttribute('allow'),
        border: w.getComputedStyle(iframe).borderTopWidth,
        width: box.width,
        containerWidth: iframe.parentElement.getBoundingClientRect().width,
        height: box.height,
        origin: handle.origin,
        inFill: iframe.parentElement.id,
      };
    });
    assert.equal(plain.src, `${SB}/?tenant=demo&height=fill&origin=${encodeURIComponent(HOST)}`);
    assert.equal(plain.title, 'Sportsbook');
    assert.equal(plain.allow, null);
    assert.equal(plain.border, '0px');
    assert.deepEqual([plain.width, plain.height], [plain.containerWidth, 500], 'fill: the whole container');
    assert.equal(plain.origin, SB);
    assert.equal(plain.inFill, 'fill');

    const full = await page.evaluate((sb) => {
      const w = globalThis as any;
      w.handle.destroy();
      const { iframe } = w.start(
        {
          url: `${sb}/sb`,
          tenant: 'casino/1',
          launchToken: 'lt-1',
          path: '/event/e1',
          locale: 'pt-BR',
          height: 'auto',
          minHeight: 321,
          title: 'Apostas',
        },
        '#auto',
      );
      return { src: iframe.src, title: iframe.title, height: iframe.getBoundingClientRect().height };
    }, SB);
    assert.equal(
      full.src,
      `${SB}/sb/?tenant=casino%2F1&launch=lt-1&path=%2Fevent%2Fe1&locale=pt-BR&height=auto&origin=${encodeURIComponent(HOST)}`,
    );
    assert.equal(full.title, 'Apostas');
    assert.equal(full.height, 321, 'auto: minHeight until the first resize');
    await done(page);
  });

  it('mount: a bad option throws an Error naming it', async () => {
    const page = await hostWith();
    const errors = await page.evaluate(() => {
      const w = globalThis as any;
      const bad: Array<[object, string?]> = [
        [{ url: 'not a url' }],
        [{ url: 'javascript:alert(1)' }],
        [{ tenant: '' }],
        [{ tenant: undefined }],
        [{ height: 'full' }],
        [{ locale: 'fr' }],
        [{ minHeight: '600' }],
        [{ scrollOffset: true }],
        [{ theme: 'dark' }],
        [{ theme: { primaryColour: '#fff' } }],
        [{ header: 'no' }],
        [{}, '#nowhere'],
      ];
      return bad.map(([options, selector]) => {
        try {
          w.start(options, selector);
          return 'mounted';
        } catch (error: any) {
          return `${error.constructor.name}: ${error.message}`;
        }
      });
    });
    const names = [
      'url',
      'url',
      'tenant',
      'tenant',
      'height',
      'locale',
      'minHeight',
      'scrollOffset',
      'theme',
      'theme',
      'header',
      '#nowhere',
    ];
    errors.forEach((error, i) => assert.match(error, new RegExp(`^Error: Bookmaker: .*${names[i]}`)));
    assert.equal(await page.locator('iframe').count(), 0, 'nothing mounted');
    await done(page);
  });

  it('mount: theme, header and oddsFormat travel in the address as given, for the sportsbook to check', async () => {
    const page = await hostWith();
    const src = await page.evaluate(() => {
      const w = globalThis as any;
      const theme = { primary: '#1b6e34', accent: 'not a colour', radius: 4, mode: 'dark', fontFamily: undefined };
      return w.start({ theme, header: false, oddsFormat: 'american' }).iframe.src;
    });
    const query = new URL(src).searchParams;
    assert.deepEqual(
      [...query].filter(([name]) => !['tenant', 'height', 'origin'].includes(name)),
      [
        ['header', 'false'],
        ['oddsFormat', 'american'],
        ['theme.primary', '#1b6e34'],
        ['theme.accent', 'not a colour'],
        ['theme.radius', '4'],
        ['theme.mode', 'dark'],
      ],
    );
    const plain = await page.evaluate(() => {
      const w = globalThis as any;
      w.handle.destroy();
      return w.start({ header: true, theme: {} }).iframe.src;
    });
    assert.equal(
      plain,
      `${SB}/?tenant=demo&height=fill&origin=${encodeURIComponent(HOST)}`,
      'header: true is the default',
    );
    await done(page);
  });

  it('each event reaches its callback, then the on() handlers in order, then onEvent; ready resolves', async () => {
    const page = await hostWith();
    await page.evaluate(() => {
      const w = globalThis as any;
      const handle = w.start();
      handle.on('bet_placed', w.record('on#1'));
      const unsubscribe = handle.on('bet_placed', w.record('on#removed'));
      handle.on('bet_placed', w.record('on#2'));
      handle.on('ready', w.record('on:ready'));
      unsubscribe();
      handle.ready.then(w.record('ready resolved'));
    });
    const frame = await sdkFrame(page);
    await emit(frame, 'ready', READY);
    const bet = { betId: 'b1', stake: 500, currency: 'BRL', potentialPayout: 1250, legs: 2 };
    await emit(frame, 'bet_placed', bet);
    assert.deepEqual(await logLength(page, 7), [
      ['onReady', READY],
      ['on:ready', READY],
      ['onEvent', 'ready', READY],
      ['ready resolved', READY],
      ['onBetPlaced', bet],
      ['on#1', bet],
      ['on#2', bet],
      ['onEvent', 'bet_placed', bet],
    ]);

    const payloads: Record<string, object> = {
      resize: { height: 900 },
      route: { path: '/live', title: 'Live' },
      login_required: { reason: 'place_bet' },
      session_expired: { reason: 'expired' },
      balance_changed: { balance: 1000, currency: 'BRL' },
      bet_settled: { betId: 'b1', status: 'won', payout: 1250, currency: 'BRL' },
      deposit_requested: { currency: 'BRL' },
      error: { code: 'invalid_path', message: 'No such page' },
    };
    await page.evaluate(() => ((globalThis as any).log = []));
    for (const [type, payload] of Object.entries(payloads)) await emit(frame, type, payload);
    const log = await logLength(page, 16);
    const callbacks = ['onResize', 'onRouteChange', 'onLoginRequired', 'onSessionExpired'];
    callbacks.push('onBalanceChanged', 'onBetSettled', 'onDepositRequested', 'onError');
    assert.deepEqual(
      log,
      Object.entries(payloads).flatMap(([type, payload], i) => [
        [callbacks[i], payload],
        ['onEvent', type, payload],
      ]),
    );
    await done(page);
  });

  it('a throwing or rejecting callback is reported with console.error and the others still run', async () => {
    const page = await hostWith();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.evaluate(() => {
      const w = globalThis as any;
      const handle = w.start({
        onBetPlaced() {
          throw new Error('boom from onBetPlaced');
        },
      });
      handle.on('bet_placed', async () => {
        throw new Error('boom from an async handler');
      });
      handle.on('bet_placed', w.record('on'));
    });
    const frame = await sdkFrame(page);
    const bet = { betId: 'b1', stake: 1, currency: 'BRL', potentialPayout: 2, legs: 1 };
    await emit(frame, 'bet_placed', bet);
    assert.deepEqual(await logLength(page, 2), [
      ['on', bet],
      ['onEvent', 'bet_placed', bet],
    ]);
    for (let i = 0; i < 50 && consoleErrors.length < 2; i++) await sleep(20);
    assert.equal(consoleErrors.length, 2, consoleErrors.join('\n'));
    assert.match(consoleErrors[0]!, /Bookmaker: a bet_placed callback failed.*boom from onBetPlaced/s);
    assert.match(consoleErrors[1]!, /Bookmaker: a bet_placed callback failed.*boom from an async handler/s);
    await done(page);
  });

  it('ignores messages from another window, another origin, or another protocol version', async () => {
    const page = await hostWith();
    await page.evaluate(() => (globalThis as any).start());
    const frame = await sdkFrame(page);
    const bet = { betId: 'b1', stake: 1, currency: 'BRL', potentialPayout: 2, legs: 1 };
    await emit(frame, 'bet_placed', bet, { v: 2 });
    await emit(frame, 'bet_placed', bet, { v: '1' });
    await emit(frame, 'bet_placed', bet, { source: 'someone-else' });
    await emit(frame, 'no_such_event', bet);
    // Another window at the sportsbook origin, and the host page itself.
    await page.evaluate((sb) => {
      const w = globalThis as any;
      const other = w.document.createElement('iframe');
      other.src = `${sb}/?other=1`;
      w.document.body.append(other);
      w.postMessage({ source: 'bookmaker-sportsbook', v: 1, type: 'error', payload: { code: 'x', message: 'x' } }, '*');
    }, SB);
    await emit(await frameAt(page, `${SB}/?other=1`), 'error', { code: 'other_window', message: 'x' });
    await sleep(150);
    await emit(frame, 'route', { path: '/', title: 'Home' });
    assert.deepEqual(await logLength(page, 2), [
      ['onRouteChange', { path: '/', title: 'Home' }],
      ['onEvent', 'route', { path: '/', title: 'Home' }],
    ]);

    // The SDK's own iframe window, navigated to another origin.
    await frame.evaluate((other) => ((globalThis as any).location.href = `${other}/?tenant=moved`), OTHER);
    const moved = await frameAt(page, `${OTHER}/?tenant=moved`);
    await emit(moved, 'error', { code: 'other_origin', message: 'x' });
    await sleep(200);
    assert.equal((await hostLog(page)).length, 2, 'nothing more was accepted');
    await done(page);
  });

  it('commands sent before ready are queued and delivered in order after ready', async () => {
    const page = await hostWith();
    await page.evaluate(() => {
      const handle = (globalThis as any).start();
      handle.setLaunchToken('lt-2');
      handle.navigate('/live');
      handle.setLocale('es');
      handle.refreshBalance();
    });
    const frame = await sdkFrame(page);
    await page.evaluate(() => (globalThis as any).handle.logout());
    await sleep(150);
    assert.deepEqual(await received(frame), [], 'nothing is posted before ready');

    await emit(frame, 'ready', READY);
    const commands = (await receivedLength(frame, 5)).map((message) => message.data);
    const host = (type: string, payload: object) => ({ source: 'bookmaker-host', v: 1, type, payload });
    assert.deepEqual(commands, [
      host('set_launch_token', { launchToken: 'lt-2' }),
      host('navigate', { path: '/live' }),
      host('set_locale', { locale: 'es' }),
      host('refresh_balance', {}),
      host('logout', {}),
    ]);
    await page.evaluate(() => (globalThis as any).handle.navigate('/my-bets'));
    assert.deepEqual((await receivedLength(frame, 6))[5].data, host('navigate', { path: '/my-bets' }));
    await done(page);
  });

  it('commands are posted to the sportsbook origin only, never to "*"', async () => {
    const page = await hostWith();
    await page.evaluate(() => (globalThis as any).start());
    const frame = await sdkFrame(page);
    await emit(frame, 'ready', READY);
    await page.evaluate(() => (globalThis as any).handle.refreshBalance());
    const [first] = await receivedLength(frame, 1);
    assert.deepEqual(first, {
      origin: HOST,
      fromParent: true,
      data: { source: 'bookmaker-host', v: 1, type: 'refresh_balance', payload: {} },
    });

    // The same iframe window now shows a page of another origin: a command must not reach it.
    await frame.evaluate((other) => ((globalThis as any).location.href = `${other}/?tenant=moved`), OTHER);
    const moved = await frameAt(page, `${OTHER}/?tenant=moved`);
    await page.evaluate(() => {
      const { handle } = globalThis as any;
      handle.navigate('/live');
      handle.refreshBalance();
    });
    await sleep(200);
    assert.deepEqual(await received(moved), []);
    // Control: a message posted to '*' does reach it.
    await page.evaluate(() => (globalThis as any).handle.iframe.contentWindow.postMessage('probe', '*'));
    assert.deepEqual(
      (await receivedLength(moved, 1)).map((m) => m.data),
      ['probe'],
    );
    await done(page);
  });

  it('onSessionExpired: a token, a promise of one, or null; one call at a time', async () => {
    const page = await hostWith();
    const tokensAfterExpiry = async (install: string): Promise<any[]> => {
      await page.evaluate((source) => {
        const w = globalThis as any;
        w.handle?.destroy();
        w.start({ onSessionExpired: w.eval(source) });
      }, install);
      const frame = await sdkFrame(page);
      await emit(frame, 'ready', READY);
      await emit(frame, 'session_expired', { reason: 'expired' });
      await sleep(150);
      return (await received(frame)).map((message) => message.data);
    };
    const token = (launchToken: string) => ({
      source: 'bookmaker-host',
      v: 1,
      type: 'set_launch_token',
      payload: { launchToken },
    });
    assert.deepEqual(await tokensAfterExpiry("() => 'fresh-1'"), [token('fresh-1')]);
    assert.deepEqual(
      await tokensAfterExpiry("() => new Promise((resolve) => setTimeout(() => resolve('fresh-2'), 30))"),
      [token('fresh-2')],
    );
    assert.deepEqual(await tokensAfterExpiry('() => null'), [], 'null leaves the player logged out');
    assert.deepEqual(await tokensAfterExpiry('async () => undefined'), []);

    // One call at a time.
    await page.evaluate(() => {
      const w = globalThis as any;
      w.handle.destroy();
      w.log = [];
      w.calls = 0;
      w.start({
        onSessionExpired: () => {
          w.calls++;
          return new Promise((resolve) => (w.resolveToken = resolve));
        },
      });
      w.handle.on('session_expired', w.record('on'));
    });
    const frame = await sdkFrame(page);
    await emit(frame, 'ready', READY);
    await emit(frame, 'session_expired', { reason: 'expired' });
    await emit(frame, 'session_expired', { reason: 'expired' });
    await logLength(page, 6); // onReady, onEvent, then on + onEvent twice
    assert.equal(await page.evaluate(() => (globalThis as any).calls), 1, 'not called again while pending');
    await page.evaluate(() => (globalThis as any).resolveToken('fresh-3'));
    assert.deepEqual(
      (await receivedLength(frame, 1)).map((m) => m.data),
      [token('fresh-3')],
    );
    await emit(frame, 'session_expired', { reason: 'logout' });
    await logLength(page, 8);
    assert.equal(await page.evaluate(() => (globalThis as any).calls), 2, 'called again once settled');
    await done(page);
  });

  it('auto height starts at minHeight and follows resize; fill ignores resize', async () => {
    const page = await hostWith();
    const height = () => page.evaluate(() => (globalThis as any).handle.iframe.getBoundingClientRect().height);
    await page.evaluate(() => (globalThis as any).start({ height: 'auto', minHeight: 400 }, '#auto'));
    const frame = await sdkFrame(page);
    assert.equal(await height(), 400);
    await emit(frame, 'ready', { ...READY, height: 'auto' });
    assert.equal(await height(), 400, 'still minHeight until the first resize');
    await emit(frame, 'resize', { height: 1234 });
    await logLength(page, 4);
    assert.equal(await height(), 1234);
    await emit(frame, 'resize', { height: 300 });
    await logLength(page, 6);
    assert.equal(await height(), 300, 'the reported height, even below minHeight');

    await page.evaluate(() => {
      const w = globalThis as any;
      w.handle.destroy();
      w.log = [];
      w.start();
    });
    const filled = await sdkFrame(page);
    await emit(filled, 'resize', { height: 1234 });
    await logLength(page, 2);
    assert.equal(await height(), 500, 'fill keeps the container height');
    await done(page);
  });

  it('auto mode scrolls back to the iframe top (minus scrollOffset) on navigation; false disables', async () => {
    const page = await hostWith();
    const scrollAfterRoute = async (extra: object, from: number): Promise<number> => {
      await page.evaluate((options) => {
        const w = globalThis as any;
        w.handle?.destroy();
        w.log = [];
        w.start({ height: 'auto', ...options }, '#auto');
      }, extra);
      const frame = await sdkFrame(page);
      await emit(frame, 'resize', { height: 2000 });
      await page.evaluate((y) => (globalThis as any).scrollTo(0, y), from);
      await emit(frame, 'route', { path: '/live', title: 'Live' });
      await logLength(page, 4);
      return page.evaluate(() => (globalThis as any).scrollY);
    };
    // The iframe's top is 50 px down the page.
    assert.equal(await scrollAfterRoute({}, 1000), 50);
    assert.equal(await scrollAfterRoute({ scrollOffset: 40 }, 1000), 10);
    assert.equal(await scrollAfterRoute({ scrollOffset: 40 }, 30), 10, 'the iframe top is under the sticky header');
    assert.equal(await scrollAfterRoute({ scrollOffset: 40 }, 5), 5, 'the iframe top is in view: no scroll');
    assert.equal(await scrollAfterRoute({ scrollOffset: false }, 1000), 1000);
    await done(page);
  });

  it('destroy() removes the iframe and every listener; the handle is inert afterwards', async () => {
    const page = await hostWith();
    const early = await page.evaluate(async () => {
      const w = globalThis as any;
      const handle = w.start();
      handle.destroy();
      const ready = await handle.ready.then(
        () => 'resolved',
        (error: Error) => error.message,
      );
      return { ready, iframes: w.document.querySelectorAll('iframe').length, listeners: w.messageListeners };
    });
    assert.deepEqual(early, { ready: 'Bookmaker: destroyed before ready', iframes: 0, listeners: 0 });

    await page.evaluate(() => {
      const w = globalThis as any;
      w.log = [];
      w.start().on('bet_placed', w.record('on'));
    });
    const frame = await sdkFrame(page);
    await emit(frame, 'ready', READY);
    await logLength(page, 2);
    await page.evaluate(() => {
      const w = globalThis as any;
      w.log = [];
      w.handle.destroy();
      w.handle.destroy();
      w.handle.navigate('/live');
      w.handle.on('bet_placed', w.record('late'))();
      w.iframeWasRemoved = !w.handle.iframe.isConnected && w.messageListeners === 0;
      // Put the same element back: a listener left behind would accept its new window's messages.
      w.document.querySelector('#fill').append(w.handle.iframe);
    });
    assert.equal(await page.evaluate(() => (globalThis as any).iframeWasRemoved), true);
    const again = await sdkFrame(page);
    await emit(again, 'bet_placed', { betId: 'b1', stake: 1, currency: 'BRL', potentialPayout: 2, legs: 1 });
    await emit(again, 'ready', READY);
    await sleep(200);
    assert.deepEqual(await hostLog(page), [], 'no callback, handler or onEvent after destroy');
    assert.deepEqual(await received(again), [], 'no command after destroy');
    await done(page);
  });
});

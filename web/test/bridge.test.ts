// The host bridge (web/src/bridge.ts) framed by a casino page: which parent origin is trusted, events held until
// it is known and then sent to it only, commands held until `ready` and then handled in order, envelopes checked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { command, event, installBrowser } from './helpers/browser.ts';

const CASINO = 'https://casino.example';
const browser = installBrowser({
  url: `https://sportsbook.example/?tenant=tn_1&origin=${encodeURIComponent(CASINO)}`,
  ancestorOrigins: [CASINO],
  referrer: `${CASINO}/lobby`,
});
const { connect, markReady, parentOrigin, post, resolveParentOrigin } = await import('../src/bridge.ts');
const { launchParams } = await import('../src/launch.ts');

/** Sets what the browser tells about the parent; returns the origin the bridge would trust with these origins. */
function resolveWith(
  embedOrigins: string[],
  setup: { ancestors?: string[]; referrer?: string; claimed?: string | null },
): string | null {
  browser.location.ancestorOrigins = setup.ancestors;
  browser.document.referrer = setup.referrer ?? '';
  launchParams.origin = setup.claimed ?? null;
  return resolveParentOrigin(embedOrigins);
}

describe('the parent origin', () => {
  it('is location.ancestorOrigins[0] where the browser gives it, when it is an embed origin or our own', () => {
    assert.equal(resolveWith([CASINO], { ancestors: [CASINO] }), CASINO);
    assert.equal(resolveWith([CASINO], { ancestors: ['https://sportsbook.example'] }), 'https://sportsbook.example');
    assert.equal(resolveWith([CASINO], { ancestors: ['https://evil.example'] }), null);
    // the claimed origin and the referrer do not count when the browser tells the real parent
    assert.equal(
      resolveWith([CASINO], { ancestors: ['https://evil.example'], claimed: CASINO, referrer: `${CASINO}/` }),
      null,
    );
    assert.equal(resolveWith([], { ancestors: [CASINO] }), null);
  });

  it('is else the `origin` parameter, when allowed and equal to the referrer origin if there is a referrer', () => {
    assert.equal(resolveWith([CASINO], { ancestors: [], claimed: CASINO, referrer: `${CASINO}/lobby?x=1` }), CASINO);
    assert.equal(resolveWith([CASINO], { claimed: CASINO }), CASINO);
    assert.equal(resolveWith([CASINO], { claimed: `${CASINO}/some/path` }), CASINO);
    assert.equal(resolveWith([CASINO], { claimed: CASINO, referrer: 'https://evil.example/' }), null);
    assert.equal(resolveWith([CASINO], { claimed: 'https://evil.example', referrer: 'https://evil.example/' }), null);
    assert.equal(resolveWith(['https://casino.example:8443'], { claimed: CASINO }), null);
  });

  it('is else the referrer origin, when allowed; never an opaque or unreadable one', () => {
    assert.equal(resolveWith([CASINO], { referrer: `${CASINO}/lobby` }), CASINO);
    assert.equal(resolveWith([CASINO], { referrer: 'https://evil.example/lobby' }), null);
    assert.equal(resolveWith([CASINO], {}), null);
    // an `origin` parameter that is not a URL is no claim: the referrer decides
    assert.equal(resolveWith([CASINO], { claimed: 'not a url', referrer: `${CASINO}/` }), CASINO);
    assert.equal(resolveWith(['null'], { referrer: 'data:text/html,hello' }), null);
  });
});

describe('events and commands', () => {
  it('holds events until the origin is known, then sends them in order to that origin only', () => {
    post('balance_changed', { balance: 1050, currency: 'BRL' });
    post('route', { path: '/', title: 'Sportsbook · Sol Casino' });
    assert.deepEqual(browser.take(), []);
    assert.equal(parentOrigin(), null);

    browser.location.ancestorOrigins = [CASINO];
    assert.equal(connect([CASINO]), CASINO);
    assert.equal(parentOrigin(), CASINO);
    assert.deepEqual(browser.take(), [
      { message: event('balance_changed', { balance: 1050, currency: 'BRL' }), targetOrigin: CASINO },
      { message: event('route', { path: '/', title: 'Sportsbook · Sol Casino' }), targetOrigin: CASINO },
    ]);
    post('login_required', { reason: 'place_bet' });
    assert.deepEqual(browser.take(), [
      { message: event('login_required', { reason: 'place_bet' }), targetOrigin: CASINO },
    ]);
  });

  it('queues the commands that arrive before ready and hands them over in order after it', () => {
    const handled: unknown[] = [];
    browser.message({ data: command('navigate', { path: '/live' }), origin: CASINO });
    browser.message({ data: command('set_locale', { locale: 'es' }), origin: 'https://evil.example' });
    browser.message({ data: command('set_locale', { locale: 'pt-BR' }), origin: CASINO, source: {} });
    browser.message({ data: command('refresh_balance', {}), origin: CASINO });
    browser.message({ data: command('navigate', { path: 42 }), origin: CASINO });
    assert.equal(handled.length, 0);
    assert.deepEqual(browser.take(), []);

    markReady((message) => handled.push(message));
    // the other origin and the other window are dropped; the unreadable command is answered with an error
    assert.deepEqual(handled, [command('navigate', { path: '/live' }), command('refresh_balance', {})]);
    assert.deepEqual(browser.take(), [
      {
        message: event('error', { code: 'invalid_command', message: 'The command navigate could not be read.' }),
        targetOrigin: CASINO,
      },
    ]);

    // after ready: at once
    browser.message({ data: command('logout', {}), origin: CASINO });
    assert.deepEqual(handled.at(-1), command('logout', {}));
    assert.equal(handled.length, 3);
  });

  it('checks the envelope: unknown commands are errors, other messages are ignored', () => {
    const before = browser.posted.length;
    browser.message({ data: command('format_disk', {}), origin: CASINO });
    browser.message({ data: { ...command('logout', {}), v: 2 }, origin: CASINO });
    browser.message({ data: 'hello', origin: CASINO });
    browser.message({ data: { source: 'someone-else', v: 1, type: 'logout', payload: {} }, origin: CASINO });
    browser.message({ data: command('set_launch_token', { launchToken: '' }), origin: CASINO });
    browser.message({ data: command('set_locale', { locale: 'fr' }), origin: CASINO });
    assert.equal(browser.posted.length, before + 3);
    assert.deepEqual(
      browser.take().map(({ message }) => message),
      [
        event('error', { code: 'invalid_command', message: 'The command format_disk could not be read.' }),
        event('error', { code: 'invalid_command', message: 'The command set_launch_token could not be read.' }),
        event('error', { code: 'invalid_command', message: 'The command set_locale could not be read.' }),
      ],
    );
  });
});

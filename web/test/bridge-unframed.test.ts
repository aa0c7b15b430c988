// The host bridge (web/src/bridge.ts) when the sportsbook is not in a frame (window.parent === window): there is no
// host to talk to, whatever the address or the referrer claim.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { command, installBrowser } from './helpers/browser.ts';

const browser = installBrowser({
  url: 'https://sportsbook.example/?tenant=tn_1&origin=https%3A%2F%2Fcasino.example',
  framed: false,
  ancestorOrigins: [],
  referrer: 'https://casino.example/',
});
const { connect, markReady, post, resolveParentOrigin } = await import('../src/bridge.ts');

it('not framed: no parent origin, nothing posted, no command accepted', () => {
  post('ready', { locale: 'en', height: 'fill', path: '/', loggedIn: false, currency: 'BRL' });
  assert.equal(resolveParentOrigin(['https://casino.example']), null);
  assert.equal(connect(['https://casino.example']), null);
  post('balance_changed', { balance: 1, currency: 'BRL' });
  const handled: unknown[] = [];
  markReady((message) => handled.push(message));
  browser.message({ data: command('logout', {}), origin: 'https://casino.example', source: browser.parent });
  assert.deepEqual(handled, []);
  assert.deepEqual(browser.posted, []);
});

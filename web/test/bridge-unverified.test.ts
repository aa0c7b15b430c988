// The host bridge (web/src/bridge.ts) when the parent cannot be trusted: framed by a page that is not an embed
// origin, and not framed at all (opened on its own). Nothing is posted and no command is accepted.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { command, installBrowser } from './helpers/browser.ts';

const browser = installBrowser({ ancestorOrigins: ['https://evil.example'] });
const { connect, markReady, parentOrigin, post } = await import('../src/bridge.ts');

it('framed by a page that is not an embed origin: the waiting events are dropped, commands are ignored', () => {
  post('ready', { locale: 'en', height: 'fill', path: '/', loggedIn: false, currency: 'BRL' });
  assert.equal(connect(['https://casino.example']), null);
  assert.equal(parentOrigin(), null);
  post('balance_changed', { balance: 1, currency: 'BRL' });
  const handled: unknown[] = [];
  browser.message({ data: command('logout', {}), origin: 'https://evil.example' });
  markReady((message) => handled.push(message));
  browser.message({ data: command('logout', {}), origin: 'https://evil.example' });
  browser.message({ data: command('format_disk', {}), origin: 'https://evil.example' });
  assert.deepEqual(handled, []);
  assert.deepEqual(browser.posted, []);
});

// The iframe address (web/src/launch.ts): read once, the credentials removed from it at import, `path` kept in step.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { installBrowser } from './helpers/browser.ts';

const browser = installBrowser({
  url: 'https://sportsbook.example/?tenant=tn_1&launch=lt_secret&token=st_secret&locale=pt-BR&height=auto&path=%2Flive&origin=https%3A%2F%2Fcasino.example#top',
});
const { launchParams, rememberPath } = await import('../src/launch.ts');

it('reads the address once and removes launch and token from it at import', () => {
  assert.deepEqual(launchParams, {
    tenant: 'tn_1',
    launch: 'lt_secret',
    token: 'st_secret',
    path: '/live',
    locale: 'pt-BR',
    height: 'auto',
    origin: 'https://casino.example',
  });
  assert.deepEqual(browser.replaced, [
    '/?tenant=tn_1&locale=pt-BR&height=auto&path=%2Flive&origin=https%3A%2F%2Fcasino.example#top',
  ]);
  assert.doesNotMatch(browser.location.href, /secret/);
});

it('keeps `path` in the address in step with the page', () => {
  rememberPath('/event/ev_1');
  assert.equal(
    browser.location.search,
    '?tenant=tn_1&locale=pt-BR&height=auto&path=%2Fevent%2Fev_1&origin=https%3A%2F%2Fcasino.example',
  );
  rememberPath('/');
  assert.equal(browser.location.search, '?tenant=tn_1&locale=pt-BR&height=auto&origin=https%3A%2F%2Fcasino.example');
  assert.equal(browser.location.hash, '#top');
  assert.equal(browser.replaced.length, 3);
});

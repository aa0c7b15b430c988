import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClientBody, setUpAggregator, type AggregatorFixture } from '../helpers/aggregator.ts';
import { startTestApp, type HttpResponse, type TestApp } from '../helpers/app.ts';
import { newRequestId, playerWithBalance, setUpSportsbook, type Sportsbook } from '../helpers/sportsbook.ts';
import { openSession } from '../helpers/tenant.ts';
import { startTestWallet, startWalletPair, type TestWallet, type WalletPair } from '../helpers/wallet.ts';

/**
 * Text PostgreSQL cannot hold as sent (a NUL character) or JSON cannot carry (a lone surrogate) is refused by one
 * rule every string schema gets: 400 validation naming the field, nothing stored, never a 5xx.
 */
let t: TestApp;
let wallets: WalletPair;
let wallet: TestWallet;
let agg: AggregatorFixture;
let book: Sportsbook;
let token: string;
before(async () => {
  t = await startTestApp();
  wallets = await startWalletPair(t.clock);
  wallet = await startTestWallet(t.clock);
  agg = await setUpAggregator(t, wallets);
  book = await setUpSportsbook(t, wallet);
  token = await playerWithBalance(t, book, wallet, 'player-1', 100_00);
});
after(async () => {
  await t.close();
  await wallets.close();
  await wallet.close();
});

const BAD_TEXT: Array<[string, string]> = [
  ['a NUL character', 'ab\u0000cd'],
  ['a lone high surrogate', 'ab\ud800cd'],
  ['a lone low surrogate', 'ab\udc00cd'],
  ['a high surrogate at the end', 'abcd\ud83d'],
];

function assertRefused(response: HttpResponse, field: string, where: string) {
  assert.equal(response.status, 400, response.text);
  assert.deepEqual(response.body.error.details, { field, in: where });
  assert.equal(
    response.body.error.message,
    `Field "${field}" must not contain NUL characters or unpaired surrogates${where === 'body' ? '' : ` (${where})`}.`,
  );
  assert.equal(response.headers.get('cache-control'), 'no-store');
}

describe('NUL characters and lone surrogates', () => {
  for (const [name, text] of BAD_TEXT) {
    it(`${name} is refused in a body field, and nothing is created`, async () => {
      const created = await agg.call('POST', '/clients', createClientBody(wallets, { name: text }));
      assertRefused(created, 'name', 'body');
      const session = await openSession(t, book.tenant, { externalPlayerId: text });
      assertRefused(session, 'externalPlayerId', 'body');
      const bet = await t.request('POST', '/api/v1/bets', {
        token,
        body: { requestId: newRequestId(), stake: 100, legs: [{ selectionId: text, odds: '2.10' }] },
      });
      assertRefused(bet, 'legs.0.selectionId', 'body');
      assert.equal((await t.db.selectFrom('clients').select('id').execute()).length, 0);
    });
  }

  it('is refused in a query parameter and a path parameter, even on anonymous routes', async () => {
    assertRefused(await t.request('GET', '/api/v1/config?tenant=%00'), 'tenant', 'querystring');
    assertRefused(await t.request('GET', '/api/v1/catalog/events/%00'), 'eventId', 'params');
    assertRefused(await t.request('GET', `/api/v1/catalog/live?sport=a%00b`), 'sport', 'querystring');
  });

  it('a surrogate pair (an emoji) is ordinary text and is kept as sent', async () => {
    const session = await openSession(t, book.tenant, { externalPlayerId: 'emoji-player', displayName: 'Ana 😀' });
    assert.equal(session.status, 200, session.text);
    assert.equal(session.body.player.displayName, 'Ana 😀');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setUpAggregator } from '../helpers/aggregator.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { openSession, type TestTenant } from '../helpers/tenant.ts';
import { startWalletPair, type WalletPair } from '../helpers/wallet.ts';
import { activateClient } from '../sandbox/fixture.ts';

/**
 * A client's sandbox and production are two tenant environments, each with players of its own: the same casino player
 * keeps favourites and settings in each apart from the other.
 */
let t: TestApp;
let wallets: WalletPair;
before(async () => {
  t = await startTestApp();
  wallets = await startWalletPair(t.clock);
});
after(async () => {
  await t.close();
  await wallets.close();
});

async function playerToken(environment: TestTenant): Promise<string> {
  const response = await openSession(t, environment, { externalPlayerId: 'same-player' });
  assert.equal(response.status, 200, response.text);
  return response.body.token;
}

describe('sandbox and production', () => {
  it("a sandbox player's favourites and settings are apart from the production player's", async () => {
    const agg = await setUpAggregator(t, wallets);
    const client = await activateClient({ agg, wallets });
    const trader = (await loginAsStaff(t, 'trader')).token;
    await t.request('POST', '/api/v1/admin/trading/sports', { token: trader, body: { id: 'soccer', name: 'Soccer' } });
    const { body } = await t.request('POST', '/api/v1/admin/trading/competitions', {
      token: trader,
      body: { sportId: 'soccer', name: 'Série A', country: 'Brazil' },
    });
    const competitionId = body.competition.id;
    const sandbox = await playerToken(client.sandbox);
    const production = await playerToken(client.production);

    const added = await t.request('PUT', `/api/v1/favourites/competitions/${competitionId}`, { token: sandbox });
    assert.equal(added.status, 201);
    const changed = await t.request('PATCH', '/api/v1/settings', { token: sandbox, body: { oddsFormat: 'american' } });
    assert.equal(changed.status, 200);

    assert.deepEqual((await t.request('GET', '/api/v1/favourites', { token: production })).body, {
      events: [],
      competitions: [],
    });
    assert.deepEqual((await t.request('GET', '/api/v1/settings', { token: production })).body, {
      settings: { oddsFormat: null, acceptOddsChanges: 'higher', quickStakes: null },
    });
    const kept = await t.request('GET', '/api/v1/favourites', { token: sandbox });
    assert.deepEqual(
      kept.body.competitions.map((favourite: { id: string }) => favourite.id),
      [competitionId],
    );
  });
});

import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { loginAsStaff, type TestApp } from '../helpers/app.ts';
import { freshSportsbookPerTest, newRequestId, type Sportsbook } from '../helpers/sportsbook.ts';
import { createTenant } from '../helpers/tenant.ts';

/**
 * Stake factors (docs/betting.md): a trader, or the player's operator, sets the share of the tenant's maximum stake
 * (1,000,000 minor units here) one player may stake; placement applies it from the player's next call.
 */
const fresh = freshSportsbookPerTest('factor-player', 100_000_00);
let t: TestApp;
let book: Sportsbook;
let token: string;
let playerId: string;
beforeEach(async () => {
  ({ t, book, token } = fresh);
  playerId = (await t.request('GET', '/api/v1/session', { token })).body.player.id;
});

const REASON = 'sharp in-play bettor';
const setFactor = (by: string, factor: unknown, reason: unknown = REASON, id = playerId) =>
  t.request('PUT', `/api/v1/admin/players/${id}/stake-factor`, { token: by, body: { factor, reason } });
const place = (stake: number) =>
  t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
  });

describe('stake factors', () => {
  it("a trader's factor lowers the player's maximum stake at once; a bet above it is refused with the maximum", async () => {
    const set = await setFactor(book.trader, '0.0005');
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body, {
      player: { id: playerId, tenantId: book.tenant.tenantId, stakeFactor: '0.0005', maxStake: 500 },
    });
    const refused = await place(501);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'stake_out_of_range');
    assert.deepEqual(refused.body.error.details, { minStake: 100, maxStake: 500 });
    assert.equal((await place(500)).status, 201);
  });

  it("a factor above 1 raises it, up to ten times the tenant's", async () => {
    assert.equal((await place(1_000_001)).status, 400, "above the tenant's maximum");
    const set = await setFactor(book.trader, '1.5');
    assert.equal(set.body.player.maxStake, 1_500_000);
    assert.equal((await place(1_000_001)).status, 201);
    assert.equal((await setFactor(book.trader, '10')).body.player.maxStake, 10_000_000);
  });

  it("operators set their own tenant's players' factors; another tenant's player is unknown to them; audited", async () => {
    const own = await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId });
    assert.equal((await setFactor(own.token, '0.5')).status, 200);
    const other = await createTenant(t, book.admin, { walletUrl: 'http://127.0.0.1:9/wallet' });
    const stranger = await loginAsStaff(t, 'operator', { tenantId: other.tenantId });
    const refused = await setFactor(stranger.token, '2');
    assert.equal(refused.status, 404);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'player.stake_factor.set')
      .execute();
    assert.deepEqual(audit, [
      {
        action: 'player.stake_factor.set',
        details: { from: 10_000, to: 5_000, reason: 'sharp in-play bettor', tenantId: book.tenant.tenantId },
      },
    ]);
  });

  it('refuses a factor out of bounds or malformed, or no reason (400), and changes nothing', async () => {
    const bodies: unknown[] = [
      { factor: '0', reason: 'x' },
      { factor: '10.5', reason: 'x' },
      { factor: '0.00001', reason: 'x' },
      { factor: 'abc', reason: 'x' },
      { factor: 0.5, reason: 'x' },
      { factor: '0.5', reason: '' },
      { factor: '0.5' },
      { factor: '0.5', reason: 'x', extra: 1 },
    ];
    for (const body of bodies) {
      const response = await t.request('PUT', `/api/v1/admin/players/${playerId}/stake-factor`, {
        token: book.trader,
        body,
      });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.error.code, 'validation');
    }
    assert.equal((await place(1_000_000)).status, 201, 'the full maximum still');
    assert.equal((await setFactor(book.trader, '0.5', 'x', 'pl_unknown')).status, 404);
    const player = await t.request('PUT', `/api/v1/admin/players/${playerId}/stake-factor`, {
      token,
      body: { factor: '0.5', reason: 'x' },
    });
    assert.equal(player.status, 401, "a player's own session cannot");
  });
});

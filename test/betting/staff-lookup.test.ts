import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { newRequestId, playerWithBalance, setUpSportsbook, type Sportsbook } from '../helpers/sportsbook.ts';
import { createTenant, exchange, openSession, type TestTenant } from '../helpers/tenant.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';

let t: TestApp;
let wallet: TestWallet;
let otherWallet: TestWallet;
let book: Sportsbook;
let other: TestTenant;
let operator: string;
let otherOperator: string;
/** Our ids of the players: `ana` in tenant A (the book's) and B, `bia` in B only. */
const players: Record<string, string> = {};
/** Bet ids: two of ana in A (older, newer), one of ana in B. */
const bets: Record<string, string> = {};

const EXTERNAL = 'ana-casino-7';

async function placeSingle(token: string, stake: number): Promise<string> {
  const response = await t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.bet.id;
}
const playerId = async (tenantId: string, externalId: string) =>
  (
    await t.db
      .selectFrom('players')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('external_id', '=', externalId)
      .executeTakeFirstOrThrow()
  ).id;

before(async () => {
  t = await startTestApp();
  wallet = await startTestWallet(t.clock);
  otherWallet = await startTestWallet(t.clock);
  book = await setUpSportsbook(t, wallet);
  other = await createTenant(t, book.admin, { walletUrl: otherWallet.url, name: 'Luna Casino' });
  otherWallet.setSecret(other.walletSecret);
  operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
  otherOperator = (await loginAsStaff(t, 'operator', { tenantId: other.tenantId })).token;

  const ana = await playerWithBalance(t, book, wallet, EXTERNAL, 100_00);
  bets.older = await placeSingle(ana, 10_00);
  t.clock.advance(1000);
  bets.newer = await placeSingle(ana, 5_00);
  // The same casino id in another tenant is another player.
  await otherWallet.addPlayer(EXTERNAL, 50_00, 'BRL');
  const session = await openSession(t, other, { externalPlayerId: EXTERNAL });
  const anaInB = (await exchange(t, other.tenantId, session.body.launchToken)).body.token;
  bets.otherTenant = await placeSingle(anaInB, 7_00);
  await openSession(t, other, { externalPlayerId: 'bia-casino-1' });
  await drainDeliveries(t);
  players.ana = await playerId(book.tenant.tenantId, EXTERNAL);
  players.anaInB = await playerId(other.tenantId, EXTERNAL);
  players.bia = await playerId(other.tenantId, 'bia-casino-1');
});
after(async () => {
  await t.close();
  await wallet.close();
  await otherWallet.close();
});

const lookUp = (query: string, token = operator) => t.request('GET', `/api/v1/admin/bets?${query}`, { token });
const ids = (response: { body: { bets: Array<{ id: string }> } }) => response.body.bets.map((bet) => bet.id);

describe('the staff bet look-up', () => {
  it("finds a player's bets by our player id, newest first, with legs, movements and wallet postings", async () => {
    const response = await lookUp(`player=${players.ana}`);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual([ids(response), response.body.nextCursor], [[bets.newer, bets.older], '']);
    const [newer] = response.body.bets;
    assert.deepEqual(
      [newer.status, newer.stake, newer.currency, newer.legs.map((leg: { selectionId: string }) => leg.selectionId)],
      ['accepted', 5_00, 'BRL', [book.events[0]!.home]],
    );
    // both ids of the player, as staff find them: ours and the casino's
    assert.deepEqual([newer.playerId, newer.externalPlayerId], [players.ana, EXTERNAL]);
    assert.deepEqual(newer.movements, [
      {
        txId: `bet:${bets.newer}`,
        kind: 'bet',
        direction: 'debit',
        amount: 5_00,
        status: 'applied',
        at: newer.placedAt,
      },
    ]);
    assert.deepEqual(
      newer.money.map((m: Record<string, unknown>) => [m.txId, m.endpoint, m.kind, m.amount, m.status, m.attempts]),
      [[`bet:${bets.newer}`, 'debit', 'bet', 5_00, 'applied', 1]],
    );
  });

  it("finds the same bets by the casino's player id, in the operator's tenant", async () => {
    const byOurs = await lookUp(`player=${players.ana}`);
    const byTheirs = await lookUp(`externalPlayerId=${EXTERNAL}`);
    assert.equal(byTheirs.status, 200, byTheirs.text);
    assert.deepEqual(byTheirs.body, byOurs.body);
    const inB = await lookUp(`externalPlayerId=${EXTERNAL}`, otherOperator);
    assert.deepEqual(ids(inB), [bets.otherTenant], "tenant B's operator gets B's player of that id");
  });

  it('finds one bet by its id, the same view as in the list', async () => {
    const response = await lookUp(`betId=${bets.older}`);
    assert.equal(response.status, 200, response.text);
    const listed = (await lookUp(`player=${players.ana}`)).body.bets[1];
    assert.deepEqual(response.body, { bets: [listed], nextCursor: '' });
  });

  it("pages a player's bets", async () => {
    const first = await lookUp(`externalPlayerId=${EXTERNAL}&limit=1`);
    assert.deepEqual(ids(first), [bets.newer]);
    const second = await lookUp(`externalPlayerId=${EXTERNAL}&limit=1&cursor=${first.body.nextCursor}`);
    assert.deepEqual([ids(second), second.body.nextCursor], [[bets.older], '']);
    assert.equal(ids(await lookUp(`player=${players.ana}&limit=100`)).length, 2);
  });

  it("order=oldest pages a player's bets from the first placed", async () => {
    const first = await lookUp(`externalPlayerId=${EXTERNAL}&order=oldest&limit=1`);
    assert.deepEqual(ids(first), [bets.older]);
    const second = await lookUp(`externalPlayerId=${EXTERNAL}&order=oldest&limit=1&cursor=${first.body.nextCursor}`);
    assert.deepEqual([ids(second), second.body.nextCursor], [[bets.newer], '']);
  });

  it('shows an operator nothing of another tenant: 404 for its players and bets, 403 for naming it', async () => {
    for (const query of [
      `player=${players.anaInB}`,
      `player=${players.bia}`,
      `betId=${bets.otherTenant}`,
      'externalPlayerId=bia-casino-1',
      'player=pl_nobody',
      'betId=bt_nobody',
      'externalPlayerId=nobody',
    ]) {
      const response = await lookUp(query);
      assert.deepEqual([response.status, response.body.error.code], [404, 'not_found'], query);
    }
    const named = await lookUp(`externalPlayerId=${EXTERNAL}&tenantId=${other.tenantId}`);
    assert.deepEqual([named.status, named.body.error.code], [403, 'forbidden']);
    const own = await lookUp(`externalPlayerId=${EXTERNAL}&tenantId=${book.tenant.tenantId}`);
    assert.deepEqual(ids(own), [bets.newer, bets.older]);
  });

  it('a platform administrator sees any tenant, naming the tenant for a casino id', async () => {
    assert.deepEqual(ids(await lookUp(`player=${players.anaInB}`, book.admin)), [bets.otherTenant]);
    assert.deepEqual(ids(await lookUp(`betId=${bets.otherTenant}`, book.admin)), [bets.otherTenant]);
    const unnamed = await lookUp(`externalPlayerId=${EXTERNAL}`, book.admin);
    assert.deepEqual([unnamed.status, unnamed.body.error.details.field], [400, 'tenantId']);
    assert.deepEqual(ids(await lookUp(`externalPlayerId=${EXTERNAL}&tenantId=${other.tenantId}`, book.admin)), [
      bets.otherTenant,
    ]);
    const mismatch = await lookUp(`betId=${bets.older}&tenantId=${other.tenantId}`, book.admin);
    assert.deepEqual([mismatch.status, mismatch.body.error.code], [404, 'not_found']);
    const unknownTenant = await lookUp(`externalPlayerId=${EXTERNAL}&tenantId=tn_nope`, book.admin);
    assert.deepEqual([unknownTenant.status, unknownTenant.body.error.code], [404, 'not_found']);
  });

  it('refuses what it cannot read with 400 validation', async () => {
    for (const [query, field] of [
      ['', 'player'],
      [`player=${players.ana}&betId=${bets.older}`, 'player'],
      [`player=${players.ana}&externalPlayerId=${EXTERNAL}`, 'player'],
      [`player=${players.ana}&limit=0`, 'limit'],
      [`player=${players.ana}&limit=101`, 'limit'],
      [`player=${players.ana}&cursor=bm90LWEtY3Vyc29y`, 'cursor'],
      ['externalPlayerId=ana%00x', 'externalPlayerId'],
      ['player=pl%00x', 'player'],
      ['betId=bt%00x', 'betId'],
      [`externalPlayerId=${'x'.repeat(65)}`, 'externalPlayerId'],
      [`player=${players.ana}&state=open`, 'state'],
      [`player=${players.ana}&order=placed`, 'order'],
    ] as const) {
      const response = await lookUp(query);
      assert.deepEqual(
        [response.status, response.body.error.code, response.body.error.details.field],
        [400, 'validation', field],
        query,
      );
    }
  });

  it('is for operators and platform administrators', async () => {
    const trader = await lookUp(`player=${players.ana}`, book.trader);
    assert.deepEqual([trader.status, trader.body.error.code], [403, 'forbidden']);
    const anonymous = await t.request('GET', `/api/v1/admin/bets?player=${players.ana}`);
    assert.equal(anonymous.status, 401);
  });
});

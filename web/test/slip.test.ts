// The bet slip's logic (web/src/betslip/slip.ts): the payout and combined odds the slip shows (the service's rule,
// exactly), stakes, singles and accumulators, odds changes, what survives a reload, and placing bets against a fake
// API.
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { combinedOddsMilli, formatMilli, potentialPayout } from '../../src/catalog/odds.ts';
import type { Bet, EventHeader, Market, Selection } from '../src/types.ts';
import { event, installBrowser } from './helpers/browser.ts';

const CASINO = 'https://casino.example';
const SAVED = {
  items: Array.from({ length: 21 }, (_, n) => ({ selectionId: `se_saved_${n}`, eventId: `ev_saved_${n}` })),
  mode: 'acca',
  accaStakeText: '5',
  placing: true,
  receipt: { bets: [], items: [] },
};
const browser = installBrowser({
  url: 'https://sportsbook.example/?tenant=tn_1',
  ancestorOrigins: [CASINO],
  storage: { 'bookmaker.slip.tn_1': JSON.stringify(SAVED) },
});
const slip = await import('../src/betslip/slip.ts');
const { connect } = await import('../src/bridge.ts');
const { balanceStore, betsVersion, sessionStore } = await import('../src/session.ts');
const { currencyStore, localeStore } = await import('../src/i18n/index.ts');
const { slipStore } = slip;
/** the slip as slip.ts restored it at import, from what SAVED put in sessionStorage */
const restored = slipStore.get();

// ---- catalog fixtures ----
function header(id: string, status: EventHeader['status'] = 'scheduled'): EventHeader {
  return {
    id,
    sport: { id: 'soccer', name: 'Soccer' },
    competition: { id: 'cp_1', name: 'Série A', country: 'Brazil' },
    home: `${id} home`,
    away: `${id} away`,
    startsAt: '2026-03-11T20:00:00Z',
    status,
    score: null,
    period: null,
    clock: null,
  };
}
function selection(id: string, odds: string): Selection {
  return { id, name: 'Home', outcome: 'home', odds, oddsVersion: 1, result: null };
}
function market(id: string, selections: Selection[], status: Market['status'] = 'open'): Market {
  return { id, type: 'match_result', name: 'Match result', line: null, status, settlementVersion: 0, selections };
}
/** Adds the one selection of a one-selection market of an event to the slip. */
function add(eventId: string, selectionId: string, odds: string, status: EventHeader['status'] = 'scheduled') {
  const picked = selection(selectionId, odds);
  slip.toggleSelection(picked, market(`mk_${selectionId}`, [picked]), header(eventId, status));
}
const ids = () => slipStore.get().items.map((item) => item.selectionId);

// ---- a fake API ----
interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}
const calls: Call[] = [];
let answers: Array<{ status: number; body: unknown }> = [];
function fakeFetch(url: string, init: { method: string; headers: Record<string, string>; body?: string }) {
  calls.push({ method: init.method, url, headers: init.headers, body: init.body ? JSON.parse(init.body) : undefined });
  const answer = answers.shift();
  if (!answer) throw new Error(`unexpected call ${init.method} ${url}`);
  return Promise.resolve(new Response(JSON.stringify(answer.body), { status: answer.status }));
}
function placed(id: string, stake: number, legs: Array<[string, string]>, payout: number): Bet {
  return {
    id,
    requestId: 'slip-x',
    status: 'accepted',
    refusal: null,
    stake,
    remainingStake: stake,
    currency: 'BRL',
    odds: legs.length === 1 ? legs[0]![1] : '7.56',
    potentialPayout: payout,
    settledReturn: null,
    placedAt: '2026-03-10T15:00:00Z',
    decidedAt: '2026-03-10T15:00:00Z',
    settledAt: null,
    legs: legs.map(([selectionId, odds]) => ({
      selectionId,
      selectionName: 'Home',
      marketId: `mk_${selectionId}`,
      marketName: 'Match result',
      eventId: 'ev',
      eventName: 'a vs b',
      eventStartsAt: '2026-03-11T20:00:00Z',
      odds,
      result: null,
    })),
    cashOuts: [],
    movements: [],
  };
}

before(() => {
  connect([CASINO]);
  currencyStore.set('BRL');
  localeStore.set('en');
  Object.defineProperty(globalThis, 'fetch', { value: fakeFetch, configurable: true, writable: true });
});
afterEach(() => {
  slip.clearSlip();
  slipStore.set((state) => ({ ...state, receipt: null, placing: false, accaStakeText: '' }));
  sessionStore.set(null);
  calls.length = 0;
  answers = [];
  browser.take();
});

describe('the arithmetic', () => {
  it('reads decimal odds as exact thousandths', () => {
    assert.equal(slip.oddsMilli('2.15'), 2150n);
    assert.equal(slip.oddsMilli('2'), 2000n);
    assert.equal(slip.oddsMilli('1.5'), 1500n);
    assert.equal(slip.oddsMilli('10.125'), 10125n);
    assert.equal(slip.oddsMilli('1000'), 1000000n);
  });

  it('pays floor(stake x odds), the product of the legs for an accumulator, with one floor at the end', () => {
    assert.equal(slip.payout(1000, ['2.10']), 2100);
    assert.equal(slip.payout(500, ['2.10', '3.60']), 3780);
    assert.equal(slip.payout(333, ['1.5']), 499);
    assert.equal(slip.payout(1, ['1.999']), 1);
    assert.equal(slip.payout(100, ['1.333', '1.333']), 177);
    assert.equal(slip.payout(999, ['1.001', '1.001', '1.001']), 1001);
    assert.equal(slip.payout(0, ['5.00']), 0);
    assert.equal(slip.payout(1234, []), 1234);
  });

  it('shows combined odds to three decimals, rounded down, with at least two', () => {
    assert.equal(slip.combinedOdds(['2.10', '3.60']), '7.56');
    assert.equal(slip.combinedOdds(['2.10', '3.25']), '6.825');
    assert.equal(slip.combinedOdds(['1.111', '1.111']), '1.234');
    assert.equal(slip.combinedOdds(['1.5', '2']), '3.00');
    assert.equal(slip.combinedOdds(['2.5']), '2.50');
    // a long accumulator whose product a float cannot hold exactly (found by the property below)
    const long = [52365, 65906, 99705, 70605, 36725, 33265];
    assert.equal(slip.combinedOdds(long.map(formatMilli)), formatMilli(combinedOddsMilli(long)));
  });

  it('agrees with the service: payout and combined odds for any stake and legs', () => {
    const odds = fc.integer({ min: 1001, max: 99_999 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.array(odds, { minLength: 1, maxLength: 6 }),
        (stake, milli) => {
          const text = milli.map(formatMilli);
          assert.equal(slip.payout(stake, text), Number(potentialPayout(stake, milli)));
          assert.equal(slip.combinedOdds(text), formatMilli(combinedOddsMilli(milli)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('takes a stake typed in major units, and nothing that is not a positive amount', () => {
    assert.equal(slip.stakeOf('10'), 1000);
    assert.equal(slip.stakeOf('10,50'), 1050);
    assert.equal(slip.stakeOf('0.01'), 1);
    assert.equal(slip.stakeOf('0'), null);
    assert.equal(slip.stakeOf('0,00'), null);
    assert.equal(slip.stakeOf(''), null);
    assert.equal(slip.stakeOf('ten'), null);
    // the minus sign is not an amount character: it is dropped
    assert.equal(slip.stakeOf('-5'), 500);
  });
});

describe('the slip', () => {
  it('came back from sessionStorage after a reload: 20 selections at most, no receipt, not placing', () => {
    assert.equal(slip.MAX_SELECTIONS, 20);
    assert.deepEqual(
      restored.items.map((item) => item.selectionId),
      SAVED.items.slice(0, 20).map((item) => item.selectionId),
    );
    assert.deepEqual(
      { ...restored, items: [] },
      { items: [], mode: 'acca', accaStakeText: '5', placing: false, error: null, receipt: null },
    );
  });

  it('keeps singles for one event and switches to an accumulator when a second event comes', () => {
    add('ev_1', 'se_1', '2.10');
    assert.deepEqual(ids(), ['se_1']);
    assert.equal(slipStore.get().mode, 'singles');
    add('ev_2', 'se_2', '3.60');
    assert.equal(slipStore.get().mode, 'acca');
    assert.equal(slip.accaPossible(slipStore.get().items), true);
    // the player goes back to singles: a third event keeps the choice
    slip.setMode('singles');
    add('ev_3', 'se_3', '1.50');
    assert.equal(slipStore.get().mode, 'singles');
    slip.setMode('acca');
    // two selections of one event cannot be an accumulator
    add('ev_3', 'se_4', '4.00');
    assert.equal(slipStore.get().mode, 'singles');
    assert.equal(slip.accaPossible(slipStore.get().items), false);
    slip.setMode('acca');
    assert.equal(slipStore.get().mode, 'singles');
    // removing the second one makes it possible again, the mode stays singles
    slip.removeSelection('se_4');
    assert.deepEqual(ids(), ['se_1', 'se_2', 'se_3']);
    assert.equal(slipStore.get().mode, 'singles');
    // a tap on a selection in the slip takes it out
    add('ev_2', 'se_2', '3.60');
    assert.deepEqual(ids(), ['se_1', 'se_3']);
    assert.equal(slip.inSlip('se_2'), false);
    assert.equal(slip.inSlip('se_3'), true);
  });

  it('copies the first stake to a new single, and keeps stakes per selection', () => {
    add('ev_1', 'se_1', '2.10');
    slip.setStakeText('se_1', '10');
    add('ev_2', 'se_2', '3.60');
    assert.equal(slipStore.get().items[1]!.stakeText, '10');
    slip.setStakeText('se_2', '2,5');
    assert.deepEqual(
      slipStore.get().items.map((item) => item.stakeText),
      ['10', '2,5'],
    );
  });

  it('holds 20 selections at most', () => {
    for (let n = 1; n <= 20; n++) add(`ev_${n}`, `se_${n}`, '1.10');
    add('ev_21', 'se_21', '1.10');
    assert.equal(slipStore.get().items.length, 20);
    assert.deepEqual(slipStore.get().error, { code: 'max_selections', details: {} });
  });

  it('is kept in sessionStorage for a reload: selections, mode and accumulator stake only', () => {
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    slip.setAccaStakeText('5');
    const saved = JSON.parse(browser.storage.get('bookmaker.slip.tn_1') ?? 'null') as Record<string, unknown>;
    assert.deepEqual(Object.keys(saved).sort(), ['accaStakeText', 'items', 'mode']);
    assert.equal(saved.mode, 'acca');
    assert.equal(saved.accaStakeText, '5');
    assert.deepEqual(
      (saved.items as Array<{ selectionId: string }>).map((item) => item.selectionId),
      ['se_1', 'se_2'],
    );
  });

  it('follows new prices and market states; a moved price must be accepted', () => {
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    const before = slipStore.get();
    // a poll of another event changes nothing
    slip.applyMarkets(header('ev_9'), [], true);
    assert.equal(slipStore.get(), before);
    slip.applyMarkets(header('ev_1', 'live'), [market('mk_se_1', [selection('se_1', '2.40')])], true);
    const [first, second] = slipStore.get().items;
    assert.deepEqual([first!.odds, first!.accepted, first!.live, first!.status], ['2.40', '2.10', true, 'open']);
    assert.equal(second!.odds, '3.60');
    assert.equal(slip.hasOddsChanges(slipStore.get().items), true);
    slip.acceptOddsChanges();
    assert.equal(slipStore.get().items[0]!.accepted, '2.40');
    assert.equal(slip.hasOddsChanges(slipStore.get().items), false);

    slip.applyMarkets(header('ev_2'), [market('mk_se_2', [selection('se_2', '3.60')], 'suspended')], true);
    assert.equal(slipStore.get().items[1]!.status, 'suspended');
    // a partial read without the market leaves it; a complete one without it means it is gone
    slip.applyMarkets(header('ev_2'), [], false);
    assert.equal(slipStore.get().items[1]!.status, 'suspended');
    slip.applyMarkets(header('ev_2'), [], true);
    assert.equal(slipStore.get().items[1]!.status, 'unavailable');
    slip.applyMarkets(header('ev_1', 'finished'), [market('mk_se_1', [selection('se_1', '2.40')])], true);
    assert.equal(slipStore.get().items[0]!.status, 'unavailable');
  });

  it('brings the placed selections back on request after a receipt', () => {
    add('ev_1', 'se_1', '2.10');
    const items = slipStore.get().items;
    slipStore.set((state) => ({ ...state, items: [], receipt: { bets: [], items } }));
    add('ev_2', 'se_2', '3.60');
    slipStore.set((state) => ({ ...state, receipt: { bets: [], items } }));
    slip.closeReceipt(true);
    assert.deepEqual(ids(), ['se_2', 'se_1']);
    assert.equal(slipStore.get().receipt, null);
    slipStore.set((state) => ({ ...state, receipt: { bets: [], items } }));
    slip.closeReceipt(false);
    assert.deepEqual(ids(), ['se_2', 'se_1']);
  });
});

describe('placing', () => {
  const player = {
    id: 'pl_1',
    tenantId: 'tn_1',
    externalId: 'ana',
    status: 'active' as const,
    displayName: 'Ana',
    currency: 'BRL',
    kycStatus: 'verified',
    createdAt: '2026-03-01T00:00:00Z',
  };

  it('asks an anonymous player to log in', async () => {
    add('ev_1', 'se_1', '2.10');
    slip.setStakeText('se_1', '10');
    await slip.placeBets();
    assert.deepEqual(slipStore.get().error, { code: 'login', details: {} });
    assert.deepEqual(
      browser.take().map(({ message }) => message),
      [event('login_required', { reason: 'place_bet' })],
    );
    assert.equal(calls.length, 0);
  });

  it('refuses before calling the API: a moved price, a suspended market, no stake', async () => {
    sessionStore.set({ token: 'st_1', player });
    add('ev_1', 'se_1', '2.10');
    await slip.placeBets();
    assert.deepEqual(slipStore.get().error, { code: 'enter_stake', details: {} });
    slip.setStakeText('se_1', '10');
    slip.applyMarkets(header('ev_1'), [market('mk_se_1', [selection('se_1', '2.20')])], true);
    await slip.placeBets();
    assert.deepEqual(slipStore.get().error, { code: 'odds_changed', details: {} });
    slip.acceptOddsChanges();
    slip.applyMarkets(header('ev_1'), [market('mk_se_1', [selection('se_1', '2.20')], 'suspended')], true);
    await slip.placeBets();
    assert.deepEqual(slipStore.get().error, { code: 'market_unavailable', details: {}, selectionId: 'se_1' });
    slip.applyMarkets(header('ev_1'), [], true);
    await slip.placeBets();
    assert.deepEqual(slipStore.get().error, { code: 'selection_unavailable', details: {}, selectionId: 'se_1' });
    assert.equal(calls.length, 0);
  });

  it('places an accumulator at the accepted prices, then shows the receipt and the balance, and tells the host', async () => {
    sessionStore.set({ token: 'st_1', player });
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    slip.setAccaStakeText('5');
    const bet = placed(
      'bt_1',
      500,
      [
        ['se_1', '2.10'],
        ['se_2', '3.60'],
      ],
      3780,
    );
    answers = [{ status: 201, body: { bet, balance: { balance: 98_500, currency: 'BRL' } } }];
    const version = betsVersion.get();
    await slip.placeBets();

    assert.equal(calls.length, 1);
    const [call] = calls;
    assert.equal(call!.method, 'POST');
    assert.equal(call!.url, '/api/v1/bets');
    assert.equal(call!.headers.authorization, 'Bearer st_1');
    const body = call!.body as { requestId: string; stake: number; legs: unknown };
    assert.match(body.requestId, /^slip-[0-9a-f]{24}$/);
    assert.deepEqual(
      { stake: body.stake, legs: body.legs },
      {
        stake: 500,
        legs: [
          { selectionId: 'se_1', odds: '2.10' },
          { selectionId: 'se_2', odds: '3.60' },
        ],
      },
    );
    const state = slipStore.get();
    assert.deepEqual(state.items, []);
    assert.equal(state.placing, false);
    assert.equal(state.error, null);
    assert.deepEqual(state.receipt?.bets, [bet]);
    assert.deepEqual(
      state.receipt?.items.map((item) => item.selectionId),
      ['se_1', 'se_2'],
    );
    assert.equal(balanceStore.get(), 98_500);
    assert.equal(betsVersion.get(), version + 1);
    assert.deepEqual(
      browser.take().map(({ message }) => message),
      [
        event('balance_changed', { balance: 98_500, currency: 'BRL' }),
        event('bet_placed', { betId: 'bt_1', stake: 500, currency: 'BRL', potentialPayout: 3780, legs: 2 }),
      ],
    );
  });

  it('places singles one by one and stops at the first refusal, showing the new price the service gave', async () => {
    sessionStore.set({ token: 'st_1', player });
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    add('ev_3', 'se_3', '1.50');
    slip.setMode('singles');
    slip.setStakeText('se_1', '10');
    slip.setStakeText('se_2', '0');
    slip.setStakeText('se_3', '1,5');
    answers = [
      // an earlier request's bet (200): no balance with it
      { status: 200, body: { bet: placed('bt_1', 1000, [['se_1', '2.10']], 2100) } },
      {
        status: 409,
        body: {
          error: {
            code: 'odds_changed',
            message: 'The odds changed.',
            details: { legs: [{ selectionId: 'se_3', odds: '1.45' }] },
          },
        },
      },
    ];
    await slip.placeBets();
    assert.deepEqual(
      calls.map((call) => (call.body as { stake: number }).stake),
      [1000, 150],
    );
    const state = slipStore.get();
    assert.deepEqual(
      state.receipt?.bets.map((b) => b.id),
      ['bt_1'],
    );
    assert.deepEqual(
      state.items.map((item) => [item.selectionId, item.odds, item.accepted]),
      [
        ['se_2', '3.60', '3.60'],
        ['se_3', '1.45', '1.50'],
      ],
    );
    assert.equal(state.error?.code, 'odds_changed');
    assert.deepEqual(
      browser.take().map(({ message }) => (message as { type: string }).type),
      ['bet_placed'],
    );
  });
});

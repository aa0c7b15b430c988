// The bet slip's logic (web/src/betslip/: the state in slip.ts, the rules in slip-rules.ts, what survives a reload in
// slip-storage.ts, placing in slip-placement.ts): the payout and combined odds the slip shows (the service's rules,
// exactly), singles and an accumulator from the same selections, the choice of odds changes, quick stakes within the
// stake range, what survives a reload (and what is dropped when read back), and placing bets against a fake API.
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { combinedOddsMilli, formatMilli, potentialPayout } from '../../src/catalog/odds.ts';
import * as rules from '../src/betslip/slip-rules.ts';
import type { Bet, EventHeader, Market, Selection } from '../src/types.ts';
import { event, installBrowser } from './helpers/browser.ts';

const CASINO = 'https://casino.example';
const KEY = 'bookmaker.slip.tn_1';
const storedItem = (n: number) => ({
  selectionId: `se_saved_${n}`,
  eventId: `ev_saved_${n}`,
  home: 'Santos',
  away: 'Grêmio',
  startsAt: '2026-03-11T20:00:00Z',
  live: false,
  marketType: 'match_result',
  line: null,
  selectionName: 'Santos',
  odds: '2.10',
  accepted: '2.00',
  status: 'open',
  stakeText: '5',
});
/** What an earlier page kept: 21 selections (one too many), a stake and a choice. */
const SAVED = {
  v: 2,
  items: Array.from({ length: 21 }, (_, n) => storedItem(n)),
  accaStakeText: '5',
  acceptance: 'any',
};

// the fake browser has sessionStorage; the slip lives in localStorage
const local = new Map<string, string>([[KEY, JSON.stringify(SAVED)]]);
Object.defineProperty(globalThis, 'localStorage', {
  value: {
    getItem: (key: string) => local.get(key) ?? null,
    setItem: (key: string, value: string) => void local.set(key, String(value)),
    removeItem: (key: string) => void local.delete(key),
  },
  configurable: true,
  writable: true,
});
const browser = installBrowser({ url: 'https://sportsbook.example/?tenant=tn_1', ancestorOrigins: [CASINO] });
const slip = await import('../src/betslip/slip.ts');
const storage = await import('../src/betslip/slip-storage.ts');
const placement = await import('../src/betslip/slip-placement.ts');
const { connect } = await import('../src/bridge.ts');
const { balanceStore, betsVersion, sessionStore } = await import('../src/session.ts');
const { currencyStore, formatOdds, localeStore } = await import('../src/i18n/index.ts');
const { slipStore, stakeLimits, quickStakesStore } = slip;
/** the slip as slip.ts restored it at import, from what SAVED put in localStorage */
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
    betDelaySeconds: 0,
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
/** A new price for a selection added with add(). */
const reprice = (eventId: string, selectionId: string, odds: string) =>
  slip.applyMarkets(header(eventId), [market(`mk_${selectionId}`, [selection(selectionId, odds)])], true);
const ids = () => slipStore.get().items.map((item) => item.selectionId);
const item = (selectionId: string) => slipStore.get().items.find((i) => i.selectionId === selectionId)!;

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
const sent = () => calls.map((call) => call.body as { stake: number; legs: unknown; acceptOddsChanges: string });
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
const refusal = (status: number, code: string, details: Record<string, unknown> = {}) => ({
  status,
  body: { error: { code, message: code, details } },
});
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

before(() => {
  connect([CASINO]);
  currencyStore.set('BRL');
  localeStore.set('en');
  Object.defineProperty(globalThis, 'fetch', { value: fakeFetch, configurable: true, writable: true });
});
afterEach(() => {
  slip.clearSlip();
  slipStore.set((state) => ({ ...state, receipt: null, placing: false, acceptance: 'higher', failed: {} }));
  sessionStore.set(null);
  stakeLimits.set(null);
  quickStakesStore.set(null);
  calls.length = 0;
  answers = [];
  browser.take();
});

describe('the arithmetic', () => {
  it('reads decimal odds as exact thousandths', () => {
    assert.equal(rules.oddsMilli('2.15'), 2150n);
    assert.equal(rules.oddsMilli('2'), 2000n);
    assert.equal(rules.oddsMilli('1.5'), 1500n);
    assert.equal(rules.oddsMilli('10.125'), 10125n);
    assert.equal(rules.oddsMilli('1000'), 1000000n);
  });

  it('pays floor(stake x odds), the product of the legs for an accumulator, with one floor at the end', () => {
    assert.equal(rules.payout(1000, ['2.10']), 2100);
    assert.equal(rules.payout(500, ['2.10', '3.60']), 3780);
    assert.equal(rules.payout(333, ['1.5']), 499);
    assert.equal(rules.payout(1, ['1.999']), 1);
    assert.equal(rules.payout(100, ['1.333', '1.333']), 177);
    assert.equal(rules.payout(999, ['1.001', '1.001', '1.001']), 1001);
    assert.equal(rules.payout(0, ['5.00']), 0);
    assert.equal(rules.payout(1234, []), 1234);
  });

  it('computes combined odds as the service records them (floored to thousandths), shown cut to two decimals', () => {
    assert.equal(rules.combinedOdds(['2.10', '3.60']), '7.56');
    assert.equal(rules.combinedOdds(['2.10', '3.25']), '6.825');
    assert.equal(rules.combinedOdds(['1.111', '1.111']), '1.234');
    assert.equal(rules.combinedOdds(['1.5', '2']), '3.00');
    // what the player reads: the bookmaker's two decimals, never more than is paid
    assert.equal(formatOdds(rules.combinedOdds(['2.10', '3.25'])), '6.82');
    assert.equal(formatOdds(rules.combinedOdds(['1.111', '1.111'])), '1.23');
    assert.equal(formatOdds(rules.combinedOdds(['2.10', '3.60'])), '7.56');
    // the return is the legs' product, as the service pays it, not the rounded figure: 10.00 at 2.10 × 3.25
    assert.equal(rules.payout(1000, ['2.10', '3.25']), 6825);
    // a long accumulator whose product a float cannot hold exactly
    const long = [52365, 65906, 99705, 70605, 36725, 33265];
    assert.equal(rules.combinedOdds(long.map(formatMilli)), formatMilli(combinedOddsMilli(long)));
  });

  it('agrees with the service: payout and combined odds for any stake and legs', () => {
    const odds = fc.integer({ min: 1001, max: 99_999 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.array(odds, { minLength: 1, maxLength: 6 }),
        (stake, milli) => {
          const text = milli.map(formatMilli);
          assert.equal(rules.payout(stake, text), Number(potentialPayout(stake, milli)));
          assert.equal(rules.combinedOdds(text), formatMilli(combinedOddsMilli(milli)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts odds changes as the service does: none the same odds only, higher the same or better, any all', () => {
    const table = (['none', 'higher', 'any'] as const).map((mode) => [
      mode,
      rules.acceptsChange(mode, '2.10', '2.1'),
      rules.acceptsChange(mode, '2.10', '2.20'),
      rules.acceptsChange(mode, '2.10', '2.00'),
    ]);
    assert.deepEqual(table, [
      ['none', true, false, false],
      ['higher', true, true, false],
      ['any', true, true, true],
    ]);
  });

  it('takes a stake typed in major units, and nothing that is not a positive amount', () => {
    assert.equal(rules.stakeOf('10'), 1000);
    assert.equal(rules.stakeOf('10,50'), 1050);
    assert.equal(rules.stakeOf('0.01'), 1);
    assert.equal(rules.stakeOf('0'), null);
    assert.equal(rules.stakeOf(''), null);
    assert.equal(rules.stakeOf('ten'), null);
  });
});

describe('singles and the accumulator', () => {
  it('makes every selection a single, and two or more from different events an accumulator too', () => {
    add('ev_1', 'se_1', '2.10');
    assert.deepEqual(
      rules.slipBets(slipStore.get()).map((bet) => bet.key),
      ['se_1'],
    );
    add('ev_2', 'se_2', '3.60');
    assert.deepEqual(
      rules.slipBets(slipStore.get()).map((bet) => [bet.key, bet.items.map((i) => i.selectionId)]),
      [
        ['se_1', ['se_1']],
        ['se_2', ['se_2']],
        [rules.ACCA, ['se_1', 'se_2']],
      ],
    );
    // two selections of one event cannot be an accumulator: singles only
    add('ev_2', 'se_3', '4.00');
    assert.equal(rules.accaPossible(slipStore.get().items), false);
    assert.deepEqual(
      rules.slipBets(slipStore.get()).map((bet) => bet.key),
      ['se_1', 'se_2', 'se_3'],
    );
    slip.removeSelection('se_3');
    assert.equal(rules.accaPossible(slipStore.get().items), true);
    // a tap on a selection in the slip takes it out
    add('ev_2', 'se_2', '3.60');
    assert.deepEqual(ids(), ['se_1']);
  });

  it('totals the staked bets: their stake and what they pay, each at its own odds', () => {
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    add('ev_3', 'se_3', '1.333');
    assert.deepEqual(rules.slipTotals(slipStore.get()), { count: 0, stake: 0, payout: 0 });
    slip.setStakeText('se_1', '10');
    slip.setStakeText('se_3', '1');
    slip.setAccaStakeText('2,50');
    // 10.00 × 2.10 = 21.00; 1.00 × 1.333 = 1.33; 2.50 × 2.10 × 3.60 × 1.333 = 25.19 (25.19377, floored once)
    assert.deepEqual(rules.slipTotals(slipStore.get()), { count: 3, stake: 13_50, payout: 21_00 + 1_33 + 25_19 });
    // a single without a stake is no bet; a new selection starts without one
    add('ev_4', 'se_4', '2.00');
    assert.equal(item('se_4').stakeText, '');
    assert.equal(rules.slipTotals(slipStore.get()).count, 3);
  });

  it('holds 20 selections at most', () => {
    for (let n = 1; n <= 20; n++) add(`ev_${n}`, `se_${n}`, '1.10');
    add('ev_21', 'se_21', '1.10');
    assert.equal(slipStore.get().items.length, 20);
    assert.deepEqual(slipStore.get().error, { code: 'max_selections', details: {} });
  });
});

describe('odds changes', () => {
  it('accepts a move the choice accepts at once (higher: a better price), and holds one it does not', () => {
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    reprice('ev_1', 'se_1', '2.40');
    assert.deepEqual([item('se_1').odds, item('se_1').accepted, item('se_1').previous], ['2.40', '2.40', '2.10']);
    assert.equal(rules.hasOddsChanges(slipStore.get().items), false);
    reprice('ev_2', 'se_2', '3.40');
    assert.deepEqual([item('se_2').odds, item('se_2').accepted], ['3.40', '3.60']);
    assert.equal(rules.hasOddsChanges(slipStore.get().items), true);
    // what the slip shows it pays: the current odds, the ones the bet is placed at
    slip.setStakeText('se_2', '10');
    assert.equal(rules.slipTotals(slipStore.get()).payout, 34_00);
    slip.acceptOddsChanges();
    assert.equal(rules.hasOddsChanges(slipStore.get().items), false);
  });

  it('none holds every move, any holds none; choosing a wider one accepts what it now accepts', () => {
    add('ev_1', 'se_1', '2.10');
    slip.setAcceptance('none');
    reprice('ev_1', 'se_1', '2.40');
    assert.deepEqual([item('se_1').odds, item('se_1').accepted], ['2.40', '2.10']);
    slip.setAcceptance('higher');
    assert.deepEqual([item('se_1').odds, item('se_1').accepted], ['2.40', '2.40']);
    reprice('ev_1', 'se_1', '1.90');
    assert.equal(item('se_1').accepted, '2.40');
    slip.setAcceptance('any');
    assert.equal(item('se_1').accepted, '1.90');
    reprice('ev_1', 'se_1', '1.50');
    assert.equal(item('se_1').accepted, '1.50');
  });

  it('follows market states: suspended, gone from a complete read, the event over', () => {
    add('ev_1', 'se_1', '2.10');
    slip.applyMarkets(header('ev_1'), [market('mk_se_1', [selection('se_1', '2.10')], 'suspended')], true);
    assert.equal(item('se_1').status, 'suspended');
    slip.applyMarkets(header('ev_1'), [], false);
    assert.equal(item('se_1').status, 'suspended');
    slip.applyMarkets(header('ev_1'), [], true);
    assert.equal(item('se_1').status, 'unavailable');
    slip.applyMarkets(header('ev_1', 'finished'), [market('mk_se_1', [selection('se_1', '2.10')])], true);
    assert.equal(item('se_1').status, 'unavailable');
  });
});

describe('quick stakes', () => {
  it('adds 5, 10, 25 and 50 in major units of the currency, or the player’s own', () => {
    assert.deepEqual(slip.quickStakes(), [5_00, 10_00, 25_00, 50_00]);
    currencyStore.set('CLP');
    assert.deepEqual(slip.quickStakes(), [5, 10, 25, 50]);
    currencyStore.set('BRL');
    quickStakesStore.set([2_00, 20_00]);
    assert.deepEqual(slip.quickStakes(), [2_00, 20_00]);
  });

  it('keeps the stake within the stake range when it knows it', () => {
    assert.equal(slip.addQuickStake(null, 5_00), 5_00);
    assert.equal(slip.addQuickStake(7_50, 10_00), 17_50);
    stakeLimits.set({ minStake: 10_00, maxStake: 60_00 });
    assert.equal(slip.addQuickStake(null, 5_00), 10_00);
    assert.equal(slip.addQuickStake(20_00, 25_00), 45_00);
    assert.equal(slip.addQuickStake(45_00, 25_00), 60_00);
  });
});

describe('what survives a reload', () => {
  it('came back from localStorage: 20 valid selections at most, their stakes and the choice; no receipt', () => {
    assert.deepEqual(
      restored.items.map((i) => i.selectionId),
      SAVED.items.slice(0, 20).map((i) => i.selectionId),
    );
    // stored by an app before the in-play delay: none known until the event is read again
    assert.deepEqual(restored.items[0], { ...storedItem(0), delaySeconds: 0 });
    assert.deepEqual(
      { ...restored, items: [] },
      { items: [], accaStakeText: '5', acceptance: 'any', placing: false, error: null, failed: {}, receipt: null },
    );
  });

  it('keeps selections, stakes and the choice per tenant, and nothing when there is nothing to keep', () => {
    assert.equal(local.has(KEY), false, 'an empty slip with the default choice leaves nothing behind');
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    slip.setStakeText('se_1', '10');
    slip.setAccaStakeText('5');
    slip.setAcceptance('none');
    const saved = JSON.parse(local.get(KEY)!) as Record<string, unknown>;
    assert.deepEqual(Object.keys(saved).sort(), ['accaStakeText', 'acceptance', 'items', 'v']);
    assert.deepEqual(storage.readStored(local.get(KEY)!), { ...slipStore.get(), receipt: null });
    slip.clearSlip();
    assert.equal(local.has(KEY), true, 'the choice is remembered');
    slip.setAcceptance('higher');
    assert.equal(local.has(KEY), false);
  });

  it('drops a corrupt, oversized or older value whole, and a selection that is not one alone', () => {
    const empty = storage.readStored(null);
    assert.deepEqual(empty.items, []);
    assert.equal(empty.acceptance, 'higher');
    for (const raw of [
      '{',
      'null',
      '[]',
      '"slip"',
      JSON.stringify({ ...SAVED, v: 1 }),
      JSON.stringify({ items: SAVED.items }),
      JSON.stringify({ ...SAVED, items: 'se_1' }),
      JSON.stringify({ ...SAVED, accaStakeText: 'x'.repeat(70_000) }),
    ]) {
      assert.deepEqual(storage.readStored(raw), empty, raw.slice(0, 40));
    }
    const bad = [
      null,
      'se_1',
      { ...storedItem(1), odds: '2,10' },
      { ...storedItem(2), odds: 2.1 },
      { ...storedItem(3), status: 'open!' },
      { ...storedItem(4), selectionId: '' },
      { ...storedItem(5), home: 'x'.repeat(201) },
      { ...storedItem(6), stakeText: 5 },
      { ...storedItem(7), live: 'no' },
      { ...storedItem(9), marketType: '<script>' },
    ];
    const read = storage.readStored(
      JSON.stringify({
        ...SAVED,
        items: [storedItem(0), ...bad, storedItem(0), storedItem(8)],
        accaStakeText: 7,
        acceptance: 'always',
      }),
    );
    assert.deepEqual(
      read.items.map((i) => i.selectionId),
      ['se_saved_0', 'se_saved_8'],
    );
    assert.deepEqual([read.accaStakeText, read.acceptance], ['', 'higher']);
  });
});

describe('placing', () => {
  it('asks an anonymous player to log in, and the prompt goes when the player logs in', async () => {
    add('ev_1', 'se_1', '2.10');
    slip.setStakeText('se_1', '10');
    await placement.placeBets();
    assert.deepEqual(slipStore.get().error, { code: 'login', details: {} });
    assert.deepEqual(
      browser.take().map(({ message }) => message),
      [event('login_required', { reason: 'place_bet' })],
    );
    assert.equal(calls.length, 0);
    sessionStore.set({ token: 'st_1', player });
    assert.equal(slipStore.get().error, null);
  });

  it('refuses before calling the API: a moved price, no stake, a suspended market, a stake out of range', async () => {
    sessionStore.set({ token: 'st_1', player });
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    await placement.placeBets();
    assert.deepEqual(slipStore.get().error, { code: 'enter_stake', details: {} });
    slip.setStakeText('se_1', '10');
    reprice('ev_1', 'se_1', '2.00');
    await placement.placeBets();
    assert.deepEqual(slipStore.get().error, { code: 'odds_changed', details: {} });
    slip.acceptOddsChanges();
    slip.applyMarkets(header('ev_1'), [market('mk_se_1', [selection('se_1', '2.00')], 'suspended')], true);
    await placement.placeBets();
    assert.deepEqual(slipStore.get().error, { code: 'market_unavailable', details: {}, selectionId: 'se_1' });
    reprice('ev_1', 'se_1', '2.00');
    stakeLimits.set({ minStake: 1_00, maxStake: 5_00 });
    slip.setAccaStakeText('4');
    await placement.placeBets();
    assert.deepEqual(slipStore.get().failed, {
      se_1: { code: 'stake_out_of_range', details: { minStake: 1_00, maxStake: 5_00 } },
    });
    assert.equal(calls.length, 0);
  });

  it('places the singles and the accumulator in one go, one request each, with the choice of odds changes', async () => {
    sessionStore.set({ token: 'st_1', player });
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    slip.setAcceptance('any');
    slip.setStakeText('se_1', '10');
    slip.setStakeText('se_2', '2');
    slip.setAccaStakeText('5');
    const bets = [
      placed('bt_1', 10_00, [['se_1', '2.10']], 21_00),
      placed('bt_2', 2_00, [['se_2', '3.60']], 7_20),
      placed(
        'bt_3',
        5_00,
        [
          ['se_1', '2.10'],
          ['se_2', '3.60'],
        ],
        37_80,
      ),
    ];
    answers = [
      { status: 201, body: { bet: bets[0], balance: { balance: 90_00, currency: 'BRL' } } },
      // an earlier request's bet (200): no balance with it
      { status: 200, body: { bet: bets[1] } },
      { status: 201, body: { bet: bets[2], balance: { balance: 83_00, currency: 'BRL' } } },
    ];
    const version = betsVersion.get();
    await placement.placeBets();

    assert.deepEqual(
      calls.map((call) => [call.method, call.url, call.headers.authorization]),
      Array(3).fill(['POST', '/api/v1/bets', 'Bearer st_1']),
    );
    assert.deepEqual(
      sent().map(({ stake, legs, acceptOddsChanges }) => ({ stake, legs, acceptOddsChanges })),
      [
        { stake: 10_00, legs: [{ selectionId: 'se_1', odds: '2.10' }], acceptOddsChanges: 'any' },
        { stake: 2_00, legs: [{ selectionId: 'se_2', odds: '3.60' }], acceptOddsChanges: 'any' },
        {
          stake: 5_00,
          legs: [
            { selectionId: 'se_1', odds: '2.10' },
            { selectionId: 'se_2', odds: '3.60' },
          ],
          acceptOddsChanges: 'any',
        },
      ],
    );
    const requestIds = calls.map((call) => (call.body as { requestId: string }).requestId);
    assert.equal(new Set(requestIds).size, 3);
    for (const requestId of requestIds) assert.match(requestId, /^slip-[0-9a-f]{24}$/);
    const state = slipStore.get();
    assert.deepEqual(
      { items: state.items, accaStakeText: state.accaStakeText, error: state.error, failed: state.failed },
      { items: [], accaStakeText: '', error: null, failed: {} },
    );
    assert.deepEqual(state.receipt?.bets, bets);
    assert.deepEqual(
      state.receipt?.items.map((i) => i.selectionId),
      ['se_1', 'se_2'],
    );
    assert.equal(balanceStore.get(), 83_00);
    assert.equal(betsVersion.get(), version + 1);
    assert.deepEqual(
      browser.take().map(({ message }) => message),
      [
        event('balance_changed', { balance: 90_00, currency: 'BRL' }),
        event('bet_placed', { betId: 'bt_1', stake: 10_00, currency: 'BRL', potentialPayout: 21_00, legs: 1 }),
        event('bet_placed', { betId: 'bt_2', stake: 2_00, currency: 'BRL', potentialPayout: 7_20, legs: 1 }),
        event('balance_changed', { balance: 83_00, currency: 'BRL' }),
        event('bet_placed', { betId: 'bt_3', stake: 5_00, currency: 'BRL', potentialPayout: 37_80, legs: 2 }),
      ],
    );
  });

  it('reports each bet on its own: a refused one stays with its reason, the placed ones leave the slip', async () => {
    sessionStore.set({ token: 'st_1', player });
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    add('ev_3', 'se_3', '1.50');
    slip.setStakeText('se_1', '10');
    slip.setStakeText('se_2', '2');
    slip.setAccaStakeText('5');
    answers = [
      {
        status: 201,
        body: { bet: placed('bt_1', 10_00, [['se_1', '2.10']], 21_00), balance: { balance: 90_00, currency: 'BRL' } },
      },
      refusal(409, 'odds_changed', { legs: [{ selectionId: 'se_2', odds: '3.40', oddsVersion: 2 }] }),
      refusal(402, 'insufficient_funds'),
    ];
    await placement.placeBets();
    assert.deepEqual(
      sent().map(({ stake }) => stake),
      [10_00, 2_00, 5_00],
    );
    const state = slipStore.get();
    assert.deepEqual(
      state.receipt?.bets.map((bet) => bet.id),
      ['bt_1'],
    );
    // se_1 stays for the accumulator that was not placed, without its placed single's stake
    assert.deepEqual(
      state.items.map((i) => [i.selectionId, i.stakeText, i.odds, i.accepted]),
      [
        ['se_1', '', '2.10', '2.10'],
        ['se_2', '2', '3.40', '3.60'],
        ['se_3', '', '1.50', '1.50'],
      ],
    );
    assert.equal(state.accaStakeText, '5');
    assert.equal(state.error, null);
    assert.deepEqual(state.failed, {
      se_2: {
        code: 'odds_changed',
        details: { legs: [{ selectionId: 'se_2', odds: '3.40', oddsVersion: 2 }] },
      },
      [rules.ACCA]: { code: 'insufficient_funds', details: {} },
    });
    // accepting the new price clears its refusal, and the next tap sends it
    slip.acceptOddsChanges();
    assert.deepEqual(Object.keys(slipStore.get().failed), [rules.ACCA]);
  });

  it('stops at a refusal every bet would meet (the session ended), keeping what was not placed', async () => {
    sessionStore.set({ token: 'st_1', player });
    add('ev_1', 'se_1', '2.10');
    add('ev_2', 'se_2', '3.60');
    slip.setStakeText('se_1', '10');
    slip.setStakeText('se_2', '2');
    answers = [refusal(401, 'unauthorized')];
    await placement.placeBets();
    assert.equal(calls.length, 1);
    assert.deepEqual(slipStore.get().error, { code: 'session', details: {} });
    assert.deepEqual(ids(), ['se_1', 'se_2']);
    assert.equal(sessionStore.get(), null, 'the 401 ended the session');
    // logging in again clears "your session ended"
    sessionStore.set({ token: 'st_2', player });
    assert.equal(slipStore.get().error, null);
  });

  it('learns the stake range from a stake_out_of_range refusal', async () => {
    sessionStore.set({ token: 'st_1', player });
    add('ev_1', 'se_1', '2.10');
    slip.setStakeText('se_1', '0,50');
    answers = [refusal(400, 'stake_out_of_range', { minStake: 1_00, maxStake: 1_000_00 })];
    await placement.placeBets();
    assert.deepEqual(stakeLimits.get(), { minStake: 1_00, maxStake: 1_000_00 });
    assert.equal(slipStore.get().failed.se_1?.code, 'stake_out_of_range');
  });

  it('brings the placed selections back on request after a receipt, without their stakes', () => {
    add('ev_1', 'se_1', '2.10');
    slip.setStakeText('se_1', '10');
    const items = slipStore.get().items;
    slipStore.set((state) => ({ ...state, items: [], receipt: { bets: [], items } }));
    add('ev_2', 'se_2', '3.60');
    slipStore.set((state) => ({ ...state, receipt: { bets: [], items } }));
    slip.closeReceipt(true);
    assert.deepEqual(ids(), ['se_2', 'se_1']);
    assert.equal(item('se_1').stakeText, '');
    assert.equal(slipStore.get().receipt, null);
  });
});

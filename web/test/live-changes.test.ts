// What the change stream's messages do to what a screen shows (web/src/live-changes.ts, pure): the odds version
// rule (never a price older than one shown), a market merged or added, an event's own fields merged, lists (the
// main market of a summary, a sport's competitions), snapshots over what was shown, and the player's bets and offers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyChange, keepNewerOdds, mergeMarket, newerOdds, type TopicBody } from '../src/live-changes.ts';
import type { Bet, EventDetail, EventSummary, Market, Selection } from '../src/types.ts';

const selection = (id: string, odds: string, oddsVersion = 1): Selection => ({
  id,
  name: id,
  outcome: 'home',
  odds,
  oddsVersion,
  result: null,
});
const market = (id: string, selections: Selection[], status: Market['status'] = 'open'): Market => ({
  id,
  type: 'match_result',
  name: 'Match result',
  line: null,
  status,
  settlementVersion: 0,
  selections,
});
const header = (id: string) => ({
  id,
  sport: { id: 'soccer', name: 'Soccer' },
  competition: { id: 'cp_1', name: 'Série A', country: 'Brazil' },
  home: `${id} home`,
  away: `${id} away`,
  startsAt: '2026-03-11T20:00:00Z',
  status: 'live' as const,
  score: { home: 0, away: 0 },
  period: null,
  clock: null,
  betDelaySeconds: 0,
});
const detail = (id: string, markets: Market[]): EventDetail => ({ ...header(id), markets });
const summary = (id: string, main: Market | null): EventSummary => ({
  ...header(id),
  marketCount: 1,
  mainMarket: main,
});
const odds = (eventId: string, marketId: string, selectionId: string, price: string, oddsVersion: number) =>
  ({ type: 'odds', data: { eventId, marketId, selectionId, odds: price, oddsVersion } }) as const;
const eventOf = (body: TopicBody) => body.event as EventDetail;
const priceOf = (body: TopicBody, index = 0) => eventOf(body).markets[0]!.selections[index]!;

describe('the odds version rule', () => {
  it('takes a price only when its version is above the one shown', () => {
    const shown = selection('se_1', '2.10', 5);
    assert.deepEqual(newerOdds(shown, '2.40', 6), { ...shown, odds: '2.40', oddsVersion: 6 });
    assert.equal(newerOdds(shown, '1.90', 5), shown);
    assert.equal(newerOdds(shown, '1.90', 4), shown);
  });

  it('applies odds messages to an event page in any order, ending on the newest price', () => {
    let body: TopicBody = {
      event: detail('ev_1', [market('mk_1', [selection('se_1', '2.10'), selection('se_2', '3.00')])]),
    };
    body = applyChange(body, odds('ev_1', 'mk_1', 'se_1', '2.50', 3));
    body = applyChange(body, odds('ev_1', 'mk_1', 'se_1', '2.30', 2));
    assert.equal(priceOf(body).odds, '2.50');
    assert.equal(priceOf(body, 1).odds, '3.00');
    // another event's, another market's: nothing changes, the same object
    assert.equal(applyChange(body, odds('ev_2', 'mk_1', 'se_1', '9.00', 9)), body);
    assert.equal(applyChange(body, odds('ev_1', 'mk_2', 'se_1', '9.00', 9)), body);
  });

  it('keeps newer prices shown when a snapshot or a read encoded before them arrives', () => {
    const shown: TopicBody = { event: detail('ev_1', [market('mk_1', [selection('se_1', '2.50', 3)])]) };
    const older: TopicBody = { event: detail('ev_1', [market('mk_1', [selection('se_1', '2.10', 2)], 'suspended')]) };
    const merged = keepNewerOdds(shown, older);
    assert.equal(priceOf(merged).odds, '2.50');
    assert.equal(eventOf(merged).markets[0]!.status, 'suspended');
    const newer: TopicBody = { event: detail('ev_1', [market('mk_1', [selection('se_1', '2.70', 4)])]) };
    assert.equal(priceOf(keepNewerOdds(shown, newer)).odds, '2.70');
    assert.equal(keepNewerOdds(undefined, newer), newer);
  });
});

describe('markets and events', () => {
  it('replaces a changed market, keeping the newer price of each selection, and appends a new one', () => {
    const shown = market('mk_1', [selection('se_1', '2.50', 3), selection('se_2', '3.00', 1)]);
    const next = market('mk_1', [selection('se_1', '2.10', 2), selection('se_2', '3.20', 2)], 'suspended');
    const merged = mergeMarket(shown, next);
    assert.deepEqual(
      merged.selections.map((s) => [s.odds, s.oddsVersion]),
      [
        ['2.50', 3],
        ['3.20', 2],
      ],
    );
    assert.equal(merged.status, 'suspended');

    let body: TopicBody = { event: detail('ev_1', [shown]) };
    body = applyChange(body, { type: 'market', data: { eventId: 'ev_1', market: next } });
    assert.equal(eventOf(body).markets[0]!.status, 'suspended');
    assert.equal(priceOf(body).odds, '2.50');
    body = applyChange(body, { type: 'market', data: { eventId: 'ev_1', market: market('mk_2', []) } });
    assert.deepEqual(
      eventOf(body).markets.map((m) => m.id),
      ['mk_1', 'mk_2'],
    );
  });

  it("merges an event's own fields into the event page, keeping its markets", () => {
    const body: TopicBody = { event: detail('ev_1', [market('mk_1', [selection('se_1', '2.10')])]) };
    const next = applyChange(body, {
      type: 'event',
      data: { event: { id: 'ev_1', score: { home: 1, away: 0 }, status: 'live' } },
    });
    assert.deepEqual(eventOf(next).score, { home: 1, away: 0 });
    assert.equal(eventOf(next).markets, eventOf(body).markets);
    assert.equal(eventOf(next).home, 'ev_1 home');
    assert.equal(applyChange(body, { type: 'event', data: { event: { id: 'ev_9', status: 'finished' } } }), body);
  });
});

describe('lists', () => {
  it("applies odds and markets to a summary's main market when the ids match", () => {
    const main = market('mk_1', [selection('se_1', '2.10', 1)]);
    let body: TopicBody = { events: [summary('ev_1', main), summary('ev_2', null)] };
    body = applyChange(body, odds('ev_1', 'mk_1', 'se_1', '2.20', 2));
    const events = () => body.events as EventSummary[];
    assert.equal(events()[0]!.mainMarket!.selections[0]!.odds, '2.20');
    // a market that is not the main one does not enter the list
    const before = body;
    body = applyChange(body, { type: 'market', data: { eventId: 'ev_1', market: market('mk_other', []) } });
    assert.equal(body, before);
    body = applyChange(body, {
      type: 'market',
      data: { eventId: 'ev_1', market: market('mk_1', [selection('se_1', '2.00', 1)], 'suspended') },
    });
    assert.equal(events()[0]!.mainMarket!.status, 'suspended');
    assert.equal(events()[0]!.mainMarket!.selections[0]!.odds, '2.20');
  });

  it('merges a whole summary, its main market by version, in the live list and in a sport page', () => {
    const main = market('mk_1', [selection('se_1', '2.50', 3)]);
    const sport: TopicBody = {
      sport: { id: 'soccer' },
      competitions: [
        { id: 'cp_1', events: [summary('ev_1', main)] },
        { id: 'cp_2', events: [summary('ev_2', null)] },
      ],
    };
    const incoming = {
      ...summary('ev_1', market('mk_1', [selection('se_1', '2.10', 2)])),
      status: 'finished' as const,
    };
    const next = applyChange(sport, { type: 'event', data: { event: incoming } });
    const competitions = next.competitions as Array<{ events: EventSummary[] }>;
    assert.equal(competitions[0]!.events[0]!.status, 'finished');
    assert.equal(competitions[0]!.events[0]!.mainMarket!.selections[0]!.odds, '2.50');
    assert.equal(competitions[1], (sport.competitions as unknown[])[1]);
    const snapshot: TopicBody = { events: [summary('ev_1', market('mk_1', [selection('se_1', '2.00', 2)]))] };
    const kept = keepNewerOdds({ events: [summary('ev_1', main)] }, snapshot);
    assert.equal((kept.events as EventSummary[])[0]!.mainMarket!.selections[0]!.odds, '2.50');
  });
});

describe("the player's topics", () => {
  const bet = (id: string, status: string) => ({ id, status }) as unknown as Bet;

  it('replaces a changed open bet, drops one that closed, adds a new open one', () => {
    let body: TopicBody = { bets: [bet('bt_1', 'accepted'), bet('bt_2', 'accepted')] };
    body = applyChange(body, { type: 'bet', data: { bet: bet('bt_1', 'partially_cashed_out') } });
    body = applyChange(body, { type: 'bet', data: { bet: bet('bt_2', 'won') } });
    body = applyChange(body, { type: 'bet', data: { bet: bet('bt_3', 'accepted') } });
    assert.deepEqual(
      (body.bets as Bet[]).map((b) => [b.id, b.status]),
      [
        ['bt_3', 'accepted'],
        ['bt_1', 'partially_cashed_out'],
      ],
    );
  });

  it('replaces or adds a cash-out offer, null when none', () => {
    const offer = { amount: 900, currency: 'BRL', stake: 1000 };
    let body: TopicBody = { offers: [{ betId: 'bt_1', offer }] };
    body = applyChange(body, { type: 'offer', data: { betId: 'bt_1', offer: null } });
    body = applyChange(body, { type: 'offer', data: { betId: 'bt_2', offer } });
    assert.deepEqual(body.offers, [
      { betId: 'bt_1', offer: null },
      { betId: 'bt_2', offer },
    ]);
  });
});

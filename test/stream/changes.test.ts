import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventDetail, EventSummary } from '../../src/catalog/schemas.ts';
import { eventChanges, listChanges } from '../../src/stream/changes.ts';
import { Replay } from '../../src/stream/messages.ts';
import { parseTopic, splitTopics } from '../../src/stream/topics.ts';

const selection = (id: string, odds: string, oddsVersion = 1) => ({
  id,
  name: id,
  outcome: id,
  odds,
  oddsVersion,
  result: null,
});
const market = (id: string, status: 'open' | 'suspended' = 'open', odds = ['2.10', '3.25']) => ({
  id,
  type: 'match_result' as const,
  name: 'Match result',
  line: null,
  status,
  settlementVersion: 0,
  selections: odds.map((price, index) => selection(`${id}_${index}`, price)),
});
const header = {
  id: 'ev_1',
  sport: { id: 'soccer', name: 'Soccer' },
  competition: { id: 'cp_1', name: 'Série A', country: 'Brazil' },
  home: 'Santos',
  away: 'Grêmio',
  startsAt: '2026-03-02T12:00:00.000Z',
  status: 'scheduled' as const,
  score: null,
  period: null,
  clock: null,
  betDelaySeconds: 0,
};
const detail = (markets = [market('mk_1'), market('mk_2')]): EventDetail => ({ ...header, markets });
const summary = (id: string, main = market(`${id}_m`)): EventSummary => ({
  ...header,
  id,
  marketCount: 1,
  mainMarket: main,
});
const reprice = (event: EventDetail, marketIndex: number, selectionIndex: number, odds: string): EventDetail => {
  const copy = structuredClone(event);
  const target = copy.markets[marketIndex]!.selections[selectionIndex]!;
  target.odds = odds;
  target.oddsVersion += 1;
  return copy;
};

describe('what an event page is sent', () => {
  it('nothing when nothing changed', () => {
    assert.deepEqual(eventChanges(detail(), detail()), []);
  });

  it('a price change is one odds message with its version', () => {
    assert.deepEqual(eventChanges(detail(), reprice(detail(), 1, 0, '1.95')), [
      {
        type: 'odds',
        data: { eventId: 'ev_1', marketId: 'mk_2', selectionId: 'mk_2_0', odds: '1.95', oddsVersion: 2 },
      },
    ]);
  });

  it('a market whose status changed, or a new market, is sent whole', () => {
    const suspended = detail([market('mk_1', 'suspended'), market('mk_2')]);
    assert.deepEqual(eventChanges(detail(), suspended), [
      { type: 'market', data: { eventId: 'ev_1', market: suspended.markets[0] } },
    ]);
    const added = detail([market('mk_1'), market('mk_2'), market('mk_3')]);
    assert.deepEqual(eventChanges(detail(), added), [
      { type: 'market', data: { eventId: 'ev_1', market: added.markets[2] } },
    ]);
  });

  it("the event's own fields are sent when they change, without its markets", () => {
    const live = { ...detail(), status: 'live' as const, score: { home: 1, away: 0 } };
    assert.deepEqual(eventChanges(detail(), live), [
      {
        type: 'event',
        data: {
          event: {
            id: 'ev_1',
            home: 'Santos',
            away: 'Grêmio',
            startsAt: '2026-03-02T12:00:00.000Z',
            status: 'live',
            score: { home: 1, away: 0 },
            period: null,
            clock: null,
          },
        },
      },
    ]);
  });

  it('a market gone sends the snapshot again', () => {
    assert.deepEqual(eventChanges(detail(), detail([market('mk_2')])), [{ type: 'snapshot' }]);
  });
});

describe('what a list is sent', () => {
  it("a price of an event's main market is an odds message", () => {
    const after = summary('ev_2', market('ev_2_m', 'open', ['2.10', '3.40']));
    after.mainMarket!.selections[1]!.oddsVersion = 2;
    assert.deepEqual(listChanges([summary('ev_2')], [after]), [
      {
        type: 'odds',
        data: { eventId: 'ev_2', marketId: 'ev_2_m', selectionId: 'ev_2_m_1', odds: '3.40', oddsVersion: 2 },
      },
    ]);
  });

  it('any other change of an event sends its summary whole', () => {
    const after = { ...summary('ev_2'), marketCount: 2 };
    assert.deepEqual(listChanges([summary('ev_2')], [after]), [{ type: 'event', data: { event: after } }]);
  });

  it('an event joining, leaving or moving sends the snapshot again', () => {
    const [a, b] = [summary('ev_a'), summary('ev_b')];
    assert.deepEqual(listChanges([a], [a, b]), [{ type: 'snapshot' }]);
    assert.deepEqual(listChanges([a, b], [b]), [{ type: 'snapshot' }]);
    assert.deepEqual(listChanges([a, b], [b, a]), [{ type: 'snapshot' }]);
  });
});

describe('resuming', () => {
  const kept = (seq: number, channel = 'live') => ({ seq, channel, bytes: Buffer.from(String(seq)) });

  it("gives the kept messages after the reader's sequence, of its channels only", () => {
    const replay = new Replay(10);
    [kept(1), kept(2, 'event:ev_1'), kept(3)].forEach((message) => replay.keep(message));
    assert.deepEqual(
      replay.after(1, new Set(['live']), 3)!.map((message) => message.seq),
      [3],
    );
    assert.deepEqual(replay.after(3, new Set(['live']), 3), []);
  });

  it('gives nothing to resume from when the gap is older than what is kept', () => {
    const replay = new Replay(2);
    [1, 2, 3, 4].forEach((seq) => replay.keep(kept(seq)));
    assert.equal(replay.after(1, new Set(['live']), 4), undefined);
    assert.deepEqual(
      replay.after(2, new Set(['live']), 4)!.map((message) => message.seq),
      [3, 4],
    );
  });
});

describe('topics', () => {
  it('are the documented names only, each once', () => {
    assert.deepEqual(parseTopic('event:ev_1'), { kind: 'event', id: 'ev_1', key: 'event:ev_1' });
    assert.deepEqual(parseTopic('live'), { kind: 'live', key: 'live' });
    assert.equal(parseTopic('market:mk_1'), undefined);
    assert.equal(parseTopic('event:'), undefined);
    assert.equal(parseTopic(`event:${'x'.repeat(65)}`), undefined);
    assert.deepEqual(splitTopics('live,,live,bets'), ['live', 'bets']);
  });
});

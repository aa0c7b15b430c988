import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { applyFeedUpdate } from '../../src/catalog/feed.ts';
import { seedDemoCatalog } from '../../src/seed/demo-catalog.ts';
import { simulateLiveTick } from '../../src/seed/live-simulator.ts';
import { randomSource } from '../../src/seed/random.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import type { KeptState } from '../helpers/database.ts';

let t: TestApp;
let random: () => number;
// Every test starts from the demo catalog as seeded at the start clock: seeded once, put back before each test.
let seeded: KeptState;
before(async () => {
  t = await startTestApp();
  await seedDemoCatalog(t.app.services.catalog, t.clock);
  seeded = await t.database.keep();
});
after(() => t.close());
beforeEach(async () => {
  await t.reset(seeded);
  random = randomSource(7);
});

const MINUTE = 60_000;

interface Selection {
  id: string;
  outcome: string;
  odds: string;
}
interface Market {
  id: string;
  type: string;
  status: string;
  selections: Selection[];
}
interface Event {
  id: string;
  status: string;
  period: string | null;
  score: { home: number; away: number } | null;
  clock: { seconds: number; running: boolean; direction: string; setAt: string } | null;
  startsAt: string;
  markets: Market[];
}

async function tick(ms: number): Promise<number> {
  t.clock.advance(ms);
  return simulateLiveTick(t.app.services.catalog, random);
}
async function event(id: string): Promise<Event> {
  return (await t.request('GET', `/api/v1/catalog/events/${id}`)).body.event;
}
async function tradingEvent(id: string): Promise<Event> {
  const response = await t.db.selectFrom('markets').select(['id', 'status']).where('event_id', '=', id).execute();
  return { ...(await event(id)), markets: response as Market[] };
}
const oddsOf = (market: Market, outcome: string) =>
  Number(market.selections.find((selection) => selection.outcome === outcome)!.odds);

describe('live simulator', () => {
  it('a goal suspends the match, its odds move toward the scorer, and the markets reopen half a minute later', async () => {
    const id = 'ev-premier-league-1';
    let before = await event(id);
    for (let minute = 0; minute < 60; minute++) {
      await tick(MINUTE);
      const now = await event(id);
      if (now.status !== 'live') assert.fail('the match ended without a goal');
      if (now.score!.home === before.score!.home && now.score!.away === before.score!.away) {
        before = now;
        continue;
      }
      const scorer = now.score!.home > before.score!.home ? 'home' : 'away';
      const result = (of: Event) => of.markets.find((market) => market.type === 'match_result')!;
      assert.ok(
        oddsOf(result(now), scorer) < oddsOf(result(before), scorer),
        `${scorer} shortens: ${oddsOf(result(before), scorer)} -> ${oddsOf(result(now), scorer)}`,
      );
      // Those the goal decided (a total passed) close; the rest wait.
      const statuses = async () => [...new Set((await event(id)).markets.map((market) => market.status))].sort();
      assert.deepEqual(await statuses(), ['closed', 'suspended']);
      assert.equal(result(now).status, 'suspended');
      assert.equal(now.clock!.setAt, before.clock!.setAt, 'a goal does not set the clock again');
      await tick(10_000);
      assert.deepEqual(await statuses(), ['closed', 'suspended']);
      await tick(25_000);
      assert.deepEqual(await statuses(), ['closed', 'open']);
      return;
    }
    assert.fail('no goal in an hour');
  });

  it('moves a football match through half-time and the second half on the clock', async () => {
    const id = 'ev-br-serie-a-1';
    const seen: Array<[string | null, number, boolean]> = [];
    for (let step = 0; step < 30 && (seen.at(-1)?.[0] ?? '') !== 'finished'; step++) {
      await tick(5 * MINUTE);
      const now = await event(id);
      const reading = now.clock!.running
        ? now.clock!.seconds + (t.clock.now().getTime() - Date.parse(now.clock!.setAt)) / 1000
        : now.clock!.seconds;
      seen.push([now.status === 'finished' ? 'finished' : now.period, reading, now.clock!.running]);
    }
    const periods = seen.map(([period]) => period).filter((period, index, all) => period !== all[index - 1]);
    assert.deepEqual(periods.slice(-3), ['half_time', 'second_half', 'finished']);
    const halfTime = seen.filter(([period]) => period === 'half_time');
    assert.ok(halfTime.every(([, reading, running]) => reading === 45 * 60 && !running));
    assert.ok(halfTime.length >= 2 && halfTime.length <= 4, `half-time lasts 15 minutes: ${halfTime.length} ticks`);
    const secondHalf = seen.filter(([period]) => period === 'second_half').map(([, reading]) => reading);
    assert.deepEqual(
      secondHalf,
      [...secondHalf].sort((a, b) => a - b),
    );
    assert.ok(secondHalf.every((reading) => reading >= 45 * 60 && reading < 97 * 60));
    const end = await event(id);
    assert.ok(end.clock!.seconds >= 92 * 60 && !end.clock!.running, `stopped at full time: ${end.clock!.seconds}`);
  });

  it('finishes every match in time, closes its markets, and carries on', async () => {
    const live = (await t.request('GET', '/api/v1/catalog/live')).body.events.map((e: { id: string }) => e.id);
    await tick(4 * 60 * MINUTE);
    for (const id of live) {
      const ended = await tradingEvent(id);
      assert.equal(ended.status, 'finished', id);
      assert.deepEqual([...new Set(ended.markets.map((market) => market.status))], ['closed'], id);
      if (id.startsWith('ev-atp')) {
        assert.equal(Math.max(ended.score!.home, ended.score!.away), 2);
        assert.ok(ended.score!.home + ended.score!.away <= 3);
      } else {
        assert.equal(ended.clock!.running, false, id);
      }
      if (id.startsWith('ev-nba') || id.startsWith('ev-nbb')) assert.notEqual(ended.score!.home, ended.score!.away);
    }
    assert.equal(typeof (await tick(MINUTE)), 'number');
    assert.equal(typeof (await tick(0)), 'number');
  });

  it('kicks a scheduled event off at its start time, with its clock and first period', async () => {
    const next = await t.db
      .selectFrom('events')
      .select(['id', 'starts_at'])
      .where('status', '=', 'scheduled')
      .where('competition_id', '=', 'premier-league')
      .orderBy('starts_at')
      .executeTakeFirstOrThrow();
    t.clock.set(new Date(next.starts_at.getTime() + 10 * MINUTE));
    await simulateLiveTick(t.app.services.catalog, random);
    const started = await event(next.id);
    assert.deepEqual(
      [started.status, started.period, started.clock!.seconds, started.clock!.running, started.clock!.direction],
      ['live', 'first_half', 600, true, 'up'],
    );
  });

  it('sets only the status of an event of a sport it does not play', async () => {
    const catalog = t.app.services.catalog;
    await applyFeedUpdate(catalog, { type: 'sport', id: 'golf', name: 'Golf' });
    await applyFeedUpdate(catalog, { type: 'competition', id: 'open', sportId: 'golf', name: 'Open', country: 'UK' });
    await applyFeedUpdate(catalog, {
      type: 'event',
      id: 'ev-golf',
      competitionId: 'open',
      home: 'A. Player',
      away: 'B. Player',
      startsAt: t.clock.now().toISOString(),
    });
    await tick(MINUTE);
    await tick(30 * MINUTE);
    const golf = await event('ev-golf');
    assert.deepEqual([golf.status, golf.score, golf.period, golf.clock], ['live', { home: 0, away: 0 }, null, null]);
  });

  it('moves pre-match prices a little, around their model, as the feed', async () => {
    const seeded = new Map(
      (await t.db.selectFrom('selections').select(['id', 'odds_milli']).execute()).map((row) => [
        row.id,
        row.odds_milli,
      ]),
    );
    for (let round = 0; round < 40; round++) await tick(0);
    const scheduled = await t.db
      .selectFrom('selections')
      .innerJoin('markets', 'markets.id', 'selections.market_id')
      .innerJoin('events', 'events.id', 'markets.event_id')
      .select(['selections.id', 'selections.odds_milli'])
      .where('events.status', '=', 'scheduled')
      .execute();
    const moved = scheduled.filter((row) => row.odds_milli !== seeded.get(row.id));
    assert.ok(moved.length > 0, 'some prices moved');
    for (const row of moved) {
      const ratio = row.odds_milli / seeded.get(row.id)!;
      assert.ok(ratio > 0.8 && ratio < 1.25, `${row.id}: ${seeded.get(row.id)} -> ${row.odds_milli}`);
    }
    const actors = await t.db.selectFrom('audit_log').select(['actor_type', 'actor_id']).distinct().execute();
    assert.deepEqual(actors, [{ actor_type: 'system', actor_id: 'feed' }]);
  });
});

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DEMO_PRODUCER, SEEDER, seedDemoCatalog } from '../../src/seed/demo-catalog.ts';
import { randomSource } from '../../src/seed/random.ts';
import { runSimulatorClient, type TickReport } from '../../src/seed/simulator-client.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import type { KeptState } from '../helpers/database.ts';

let t: TestApp;
let random: () => number;
// Every test starts from the demo catalog as seeded at the start clock: seeded once, put back before each test.
let seeded: KeptState;
let key: string;
before(async () => {
  t = await startTestApp();
  await seedDemoCatalog(t.app.services, t.clock);
  key = (await t.app.services.producers.issueKey(SEEDER, DEMO_PRODUCER)).key;
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

/** The clock on by `ms`, then one tick of the simulator's feed client, over HTTP with the demo producer's key. */
async function tick(ms: number): Promise<Extract<TickReport, { messages: number }>> {
  t.clock.advance(ms);
  return (await ticks(1))[0]!;
}
/** `count` ticks of one run of the feed client, which remembers what the service asked it to send again. */
async function ticks(count: number): Promise<Array<Extract<TickReport, { messages: number }>>> {
  const reports: TickReport[] = [];
  await runSimulatorClient({
    url: t.url,
    key,
    random,
    ticks: count,
    pause: () => Promise.resolve(true),
    report: (report) => reports.push(report),
  });
  return reports.map((report) => ('error' in report ? assert.fail(`the tick failed: ${report.error}`) : report));
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

  it('finishes every match in time with its result, which settles its markets by rule (tennis: closed for a trader), and carries on', async () => {
    const live = (await t.request('GET', '/api/v1/catalog/live')).body.events.map((e: { id: string }) => e.id);
    await tick(4 * 60 * MINUTE);
    for (const id of live) {
      const ended = await tradingEvent(id);
      assert.equal(ended.status, 'finished', id);
      const statuses = [...new Set(ended.markets.map((market) => market.status))];
      assert.deepEqual(statuses, [id.startsWith('ev-atp') ? 'closed' : 'settled'], id);
      if (id.startsWith('ev-atp')) {
        assert.equal(Math.max(ended.score!.home, ended.score!.away), 2);
        assert.ok(ended.score!.home + ended.score!.away <= 3);
      } else {
        assert.equal(ended.clock!.running, false, id);
      }
      if (id.startsWith('ev-nba') || id.startsWith('ev-nbb')) assert.notEqual(ended.score!.home, ended.score!.away);
    }
    assert.equal((await tick(MINUTE)).outcomes.refused, undefined);
    assert.equal((await tick(0)).outcomes.refused, undefined);
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
    await tick(0);
    const started = await event(next.id);
    assert.deepEqual(
      [started.status, started.period, started.clock!.seconds, started.clock!.running, started.clock!.direction],
      ['live', 'first_half', 600, true, 'up'],
    );
  });

  it('sets only the status of an event of a sport it does not play', async () => {
    const fixture = {
      type: 'fixture' as const,
      producer: DEMO_PRODUCER,
      eventId: 'ev-golf',
      sequence: 1,
      sport: { id: 'golf', name: 'Golf' },
      competition: { id: 'open', name: 'Open', country: 'UK' },
      home: 'A. Player',
      away: 'B. Player',
      startsAt: t.clock.now().toISOString(),
    };
    await t.app.services.ingestion.push({ producerId: DEMO_PRODUCER, trusted: true }, { messages: [fixture] });
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
    const actors = await t.db
      .selectFrom('audit_log')
      .select(['actor_type', 'actor_id'])
      .where('action', 'like', 'catalog.%')
      .where('action', '!=', 'catalog.sport.create')
      .distinct()
      .execute();
    assert.deepEqual(actors, [{ actor_type: 'system', actor_id: 'feed:demo' }], "the catalog changes are the feed's");
  });

  it("never writes over a trader's price: the simulator's prices for a market taken over are kept beside it", async () => {
    const { token } = await loginAsStaff(t, 'trader');
    const id = 'ev-premier-league-1';
    const market = (await event(id)).markets.find((one) => one.type === 'match_result')!;
    const home = market.selections.find((selection) => selection.outcome === 'home')!;
    const set = await t.request('PUT', `/api/v1/admin/trading/selections/${home.id}/odds`, {
      token,
      body: { odds: '9.50' },
    });
    assert.equal(set.status, 200, set.text);
    let kept = 0;
    for (let minute = 0; minute < 20; minute++) kept += (await tick(MINUTE)).outcomes.kept ?? 0;
    assert.ok(kept > 0, "the simulator's prices for the trader's market were kept");
    const traded = (await t.request('GET', `/api/v1/admin/trading/events/${id}`, { token })).body.event;
    const now = traded.markets.find((one: { id: string }) => one.id === market.id);
    const selection = now.selections.find((one: { outcome: string }) => one.outcome === 'home');
    assert.equal(now.control, 'trader');
    assert.equal(selection.odds, '9.50', "the trader's price stands");
    assert.notEqual(selection.fedOdds, null, "the feed's price is shown beside it");
  });

  it('after an outage the simulator sends its snapshot, and the markets held for its silence reopen', async () => {
    const openMarkets = async () =>
      (await t.db.selectFrom('markets').select('id').where('status', '=', 'open').execute()).length;
    const before = await openMarkets();
    await t.app.services.producers.down({ actor: { type: 'system', id: 'feed-silence' } }, DEMO_PRODUCER);
    assert.equal(await openMarkets(), 0, 'every open market of the silent producer is held');
    const producerNow = async () => (await t.app.services.producers.list()).find((one) => one.id === DEMO_PRODUCER)!;
    const [first, second] = await ticks(2);
    assert.equal(first!.outcomes.refused, undefined);
    assert.ok(second!.messages > first!.messages, 'the second tick is a snapshot: every price of every event');
    const recovered = await producerNow();
    assert.deepEqual([recovered.state, recovered.markets.held], ['up', 0], 'its snapshot is complete');
    assert.equal(await openMarkets(), before, 'the held markets reopened');
  });
});

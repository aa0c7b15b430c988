import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { seedDemoCatalog } from '../../src/seed/demo-catalog.ts';
import { simulateLiveTick } from '../../src/seed/live-simulator.ts';
import { randomSource } from '../../src/seed/random.ts';
import { LogCapture, loginAsStaff, startTestApp, testConfig, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let trader: string;
before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(async () => {
  await t.reset();
  trader = (await loginAsStaff(t, 'trader')).token;
});

const trade = (method: string, path: string, body?: unknown, token = trader) =>
  t.request(method, `/api/v1/admin/trading${path}`, { token, ...(body === undefined ? {} : { body }) });

async function soccerEvent() {
  await trade('POST', '/sports', { id: 'soccer', name: 'Soccer' });
  const competition = (
    await trade('POST', '/competitions', { sportId: 'soccer', name: 'Premier League', country: 'England' })
  ).body.competition;
  const event = (
    await trade('POST', '/events', {
      competitionId: competition.id,
      home: 'Arsenal',
      away: 'Chelsea',
      startsAt: '2026-03-02T15:00:00Z',
    })
  ).body.event;
  const market = (
    await trade('POST', `/events/${event.id}/markets`, {
      type: 'match_result',
      selections: [
        { name: 'Arsenal', outcome: 'home', odds: '1.85' },
        { name: 'Draw', outcome: 'draw', odds: '3.60' },
        { name: 'Chelsea', outcome: 'away', odds: '4.20' },
      ],
    })
  ).body.market;
  return { competition, event, market };
}

describe('trading', () => {
  it('builds a catalog a player can browse', async () => {
    const { competition, event } = await soccerEvent();
    const totals = await trade('POST', `/events/${event.id}/markets`, {
      type: 'totals',
      line: '2.5',
      selections: [
        { name: 'Over 2.5', outcome: 'over', odds: '1.90' },
        { name: 'Under 2.5', outcome: 'under', odds: '1.95' },
      ],
    });
    assert.equal(totals.status, 201);
    assert.deepEqual([totals.body.market.name, totals.body.market.line], ['Total over/under 2.5', '2.5']);

    const sports = await t.request('GET', '/api/v1/catalog/sports');
    assert.deepEqual(sports.body, { sports: [{ id: 'soccer', name: 'Soccer', eventCount: 1, liveCount: 0 }] });
    const sport = await t.request('GET', '/api/v1/catalog/sports/soccer');
    assert.deepEqual(
      sport.body.competitions.map((c: { id: string; events: unknown[] }) => [c.id, c.events.length]),
      [[competition.id, 1]],
    );
    const summary = sport.body.competitions[0].events[0];
    assert.equal(summary.marketCount, 2);
    assert.equal(summary.mainMarket.name, 'Match result');
    const detail = await t.request('GET', `/api/v1/catalog/events/${event.id}`);
    assert.deepEqual(
      detail.body.event.markets.map((m: { type: string; status: string }) => [m.type, m.status]),
      [
        ['match_result', 'open'],
        ['totals', 'open'],
      ],
    );
    assert.deepEqual(
      detail.body.event.markets[0].selections.map((s: { odds: string }) => s.odds),
      ['1.85', '3.60', '4.20'],
    );
    const byCompetition = await t.request('GET', `/api/v1/catalog/competitions/${competition.id}`);
    assert.equal(byCompetition.body.events[0].id, event.id);
    assert.equal((await t.request('GET', '/api/v1/catalog/events/ev_missing')).status, 404);
  });

  it("changing odds bumps the selection's odds version and is audited", async () => {
    const { market } = await soccerEvent();
    const selection = market.selections[0];
    const response = await trade('PUT', `/selections/${selection.id}/odds`, { odds: '1.80' });
    assert.deepEqual([response.body.selection.odds, response.body.selection.oddsVersion], ['1.80', 2]);
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'catalog.odds.change').execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.actor_type, 'staff');
    assert.deepEqual(audit[0]!.details, { odds: '1.80' });
  });

  it('moves an event to live at 0-0, updates the score, and lists it under live', async () => {
    const { event } = await soccerEvent();
    const live = await trade('PATCH', `/events/${event.id}`, { status: 'live' });
    assert.deepEqual([live.body.event.status, live.body.event.score], ['live', { home: 0, away: 0 }]);
    await trade('PATCH', `/events/${event.id}`, { score: { home: 1, away: 0 } });
    const inPlay = await t.request('GET', '/api/v1/catalog/live');
    assert.deepEqual(
      inPlay.body.events.map((e: { id: string; score: unknown }) => [e.id, e.score]),
      [[event.id, { home: 1, away: 0 }]],
    );
    assert.equal((await t.request('GET', '/api/v1/catalog/sports')).body.sports[0].liveCount, 1);
  });

  it('a live event carries its period and its clock as set; the clock stops where it stands when the event ends', async () => {
    const { event } = await soccerEvent();
    const setAt = t.clock.now().toISOString();
    const live = await trade('PATCH', `/events/${event.id}`, {
      status: 'live',
      period: 'second_half',
      clock: { seconds: 2_700, running: true },
    });
    assert.equal(live.status, 200);
    assert.deepEqual(
      [live.body.event.period, live.body.event.clock],
      ['second_half', { seconds: 2_700, running: true, direction: 'up', setAt }],
    );
    const listed = (await t.request('GET', '/api/v1/catalog/live')).body.events[0];
    assert.deepEqual([listed.period, listed.clock.seconds], ['second_half', 2_700]);

    t.clock.advance(90_000);
    const ended = await trade('PATCH', `/events/${event.id}`, { status: 'finished' });
    assert.deepEqual(ended.body.event.clock, {
      seconds: 2_790,
      running: false,
      direction: 'up',
      setAt: t.clock.now().toISOString(),
    });
    const cleared = await trade('PATCH', `/events/${event.id}`, { period: null, clock: null });
    assert.deepEqual([cleared.body.event.period, cleared.body.event.clock], [null, null]);
  });

  it('a count-down clock never reads below zero when its event ends', async () => {
    const { event } = await soccerEvent();
    await trade('PATCH', `/events/${event.id}`, {
      status: 'live',
      period: 'quarter_4',
      clock: { seconds: 30, running: true, direction: 'down' },
    });
    t.clock.advance(60_000);
    const ended = await trade('PATCH', `/events/${event.id}`, { status: 'finished' });
    assert.deepEqual([ended.body.event.clock.seconds, ended.body.event.clock.running], [0, false]);
  });

  it('refuses an unknown period, a clock past a day or with unknown fields, and changes nothing', async () => {
    const { event } = await soccerEvent();
    for (const body of [
      { period: 'fifth_quarter' },
      { clock: { seconds: 86_401, running: true } },
      { clock: { seconds: -1, running: true } },
      { clock: { seconds: 60, running: true, direction: 'sideways' } },
      { clock: { seconds: 60, running: true, at: '2026-01-01T00:00:00Z' } },
      { clock: { seconds: 60 } },
    ]) {
      const refused = await trade('PATCH', `/events/${event.id}`, body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error.code, 'validation');
    }
    const unchanged = (await t.request('GET', `/api/v1/catalog/events/${event.id}`)).body.event;
    assert.deepEqual([unchanged.period, unchanged.clock], [null, null]);
  });

  it('suspends, reopens and closes markets; a closed market stays closed', async () => {
    const { market } = await soccerEvent();
    assert.equal(
      (await trade('PATCH', `/markets/${market.id}`, { status: 'suspended' })).body.market.status,
      'suspended',
    );
    assert.equal((await trade('PATCH', `/markets/${market.id}`, { status: 'open' })).body.market.status, 'open');
    assert.equal((await trade('PATCH', `/markets/${market.id}`, { status: 'closed' })).body.market.status, 'closed');
    const reopen = await trade('PATCH', `/markets/${market.id}`, { status: 'open' });
    assert.deepEqual([reopen.status, reopen.body.error.code], [409, 'market_closed']);
  });

  it('validates markets: lines where they belong, odds above 1.00, one outcome per selection', async () => {
    const { event } = await soccerEvent();
    const two = (extra: Record<string, unknown>) => ({
      selections: [
        { name: 'A', outcome: 'a', odds: '1.50' },
        { name: 'B', outcome: 'b', odds: '2.50' },
      ],
      ...extra,
    });
    assert.equal(
      (await trade('POST', `/events/${event.id}/markets`, two({ type: 'totals' }))).body.error.details.field,
      'line',
    );
    assert.equal(
      (await trade('POST', `/events/${event.id}/markets`, two({ type: 'moneyline', line: '1.5' }))).body.error.details
        .field,
      'line',
    );
    const lowOdds = await trade('POST', `/events/${event.id}/markets`, {
      type: 'moneyline',
      selections: [
        { name: 'A', outcome: 'a', odds: '1.00' },
        { name: 'B', outcome: 'b', odds: '2.50' },
      ],
    });
    assert.equal(lowOdds.body.error.details.field, 'selections.0.odds');
    const floatOdds = await trade('POST', `/events/${event.id}/markets`, {
      type: 'moneyline',
      selections: [
        { name: 'A', outcome: 'a', odds: 1.5 },
        { name: 'B', outcome: 'b', odds: '2.50' },
      ],
    });
    assert.equal(floatOdds.status, 400);
    const sameOutcome = await trade('POST', `/events/${event.id}/markets`, {
      type: 'moneyline',
      selections: [
        { name: 'A', outcome: 'a', odds: '1.50' },
        { name: 'B', outcome: 'a', odds: '2.50' },
      ],
    });
    assert.equal(sameOutcome.body.error.details.field, 'selections');
    assert.equal((await trade('POST', '/events/ev_missing/markets', two({ type: 'moneyline' }))).status, 404);
  });

  it('is for traders and platform administrators only', async () => {
    const operator = await loginAsStaff(t, 'operator', { tenantId: 'tn_x' });
    assert.equal((await trade('POST', '/sports', { id: 'tennis', name: 'Tennis' }, operator.token)).status, 403);
    const admin = await loginAsStaff(t, 'platform_admin');
    assert.equal((await trade('POST', '/sports', { id: 'tennis', name: 'Tennis' }, admin.token)).status, 201);
    assert.equal(
      (await t.request('POST', '/api/v1/admin/trading/sports', { body: { id: 'golf', name: 'Golf' } })).status,
      401,
    );
  });
});

describe('demo catalog', () => {
  it('fills an empty database with a recognisable sportsbook, and only an empty one', async () => {
    const { catalog } = t.app.services;
    const counts = await seedDemoCatalog(catalog, t.clock);
    assert.deepEqual(counts, { sports: 3, competitions: 7, events: 30, markets: 128 });
    const sports = (await t.request('GET', '/api/v1/catalog/sports')).body.sports;
    assert.deepEqual(
      sports.map((s: { id: string }) => s.id),
      ['soccer', 'basketball', 'tennis'],
    );
    assert.ok(sports.every((s: { eventCount: number }) => s.eventCount > 0));
    const live = (await t.request('GET', '/api/v1/catalog/live')).body.events;
    assert.ok(live.length >= 3);
    const event = (await t.request('GET', '/api/v1/catalog/events/ev-br-serie-a-2')).body.event;
    assert.equal(event.competition.name, 'Brasileirão Série A');
    assert.deepEqual(
      event.markets.map((m: { type: string }) => m.type),
      ['match_result', 'totals', 'both_teams_to_score', 'handicap', 'correct_score'],
    );
    for (const market of event.markets.slice(0, 3)) {
      const overround = market.selections.reduce((sum: number, s: { odds: string }) => sum + 1 / Number(s.odds), 0);
      assert.ok(overround > 1 && overround < 1.15, `plausible margin on ${market.name}: ${overround}`);
    }
    await assert.rejects(seedDemoCatalog(catalog, t.clock), /not empty/);
  });

  it('the live simulator moves odds, suspends and reopens markets and advances scores, as the feed', async () => {
    await seedDemoCatalog(t.app.services.catalog, t.clock);
    const before = await t.db.selectFrom('selections').select(['id', 'odds_milli']).execute();
    const random = randomSource(7);
    let changes = 0;
    for (let tick = 0; tick < 5; tick++) changes += await simulateLiveTick(t.app.services.catalog, random);
    assert.ok(changes > 0);
    const after = await t.db.selectFrom('selections').select(['id', 'odds_milli']).execute();
    const moved = after.filter((row) => before.find((b) => b.id === row.id)!.odds_milli !== row.odds_milli);
    assert.ok(moved.length > 0);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['actor_type', 'actor_id'])
      .where('action', '=', 'catalog.odds.change')
      .execute();
    assert.ok(audit.length > 0 && audit.every((row) => row.actor_type === 'system' && row.actor_id === 'feed'));
  });

  it('serve --demo-live runs the simulator as a background job, in development only', async () => {
    await seedDemoCatalog(t.app.services.catalog, t.clock);
    const live = await buildApp({
      config: t.config,
      db: t.db,
      clock: t.clock,
      logStream: new LogCapture(),
      demoLive: true,
    });
    try {
      const job = live.jobs.find((candidate) => candidate.name === 'demo-live-simulator')!;
      const feedChanges = async () =>
        (await t.db.selectFrom('audit_log').select('id').where('actor_id', '=', 'feed').execute()).length;
      const before = await feedChanges();
      for (let tick = 0; tick < 3; tick++) await job.runOnce();
      assert.ok((await feedChanges()) > before, 'the simulator changed the catalog');
    } finally {
      await live.http.close();
    }
    await assert.rejects(
      buildApp({
        config: testConfig({ APP_ENV: 'staging' }),
        db: t.db,
        clock: t.clock,
        logStream: new LogCapture(),
        demoLive: true,
      }),
      /only with APP_ENV=development/,
    );
  });
});

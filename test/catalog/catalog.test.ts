import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { seedDemoCatalog } from '../../src/seed/demo-catalog.ts';
import { startServer } from '../../src/server.ts';
import { loginAsStaff, startTestApp, testConfig, type TestApp } from '../helpers/app.ts';

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
    const sides = (extra: Record<string, unknown>) => ({
      selections: [
        { name: 'Home', outcome: 'home', odds: '1.50' },
        { name: 'Away', outcome: 'away', odds: '2.50' },
      ],
      ...extra,
    });
    assert.equal(
      (await trade('POST', `/events/${event.id}/markets`, sides({ type: 'handicap' }))).body.error.details.field,
      'line',
    );
    assert.equal(
      (await trade('POST', `/events/${event.id}/markets`, sides({ type: 'moneyline', line: '1.5' }))).body.error.details
        .field,
      'line',
    );
    const lowOdds = await trade('POST', `/events/${event.id}/markets`, {
      type: 'moneyline',
      selections: [
        { name: 'Home', outcome: 'home', odds: '1.00' },
        { name: 'Away', outcome: 'away', odds: '2.50' },
      ],
    });
    assert.equal(lowOdds.body.error.details.field, 'selections.0.odds');
    const floatOdds = await trade('POST', `/events/${event.id}/markets`, {
      type: 'moneyline',
      selections: [
        { name: 'Home', outcome: 'home', odds: 1.5 },
        { name: 'Away', outcome: 'away', odds: '2.50' },
      ],
    });
    assert.equal(floatOdds.status, 400);
    const sameOutcome = await trade('POST', `/events/${event.id}/markets`, {
      type: 'moneyline',
      selections: [
        { name: 'Home', outcome: 'home', odds: '1.50' },
        { name: 'Away', outcome: 'home', odds: '2.50' },
      ],
    });
    assert.equal(sameOutcome.body.error.details.field, 'selections');
    assert.equal((await trade('POST', '/events/ev_missing/markets', sides({ type: 'moneyline' }))).status, 404);
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
    const counts = await seedDemoCatalog(t.app.services, t.clock);
    assert.deepEqual(counts, { sports: 3, competitions: 7, events: 30, markets: 413 });
    const sports = (await t.request('GET', '/api/v1/catalog/sports')).body.sports;
    assert.deepEqual(
      sports.map((s: { id: string; liveCount: number }) => [s.id, s.liveCount]),
      [
        ['soccer', 3],
        ['basketball', 2],
        ['tennis', 1],
      ],
    );
    assert.ok(sports.every((s: { eventCount: number }) => s.eventCount > 0));
    const event = (await t.request('GET', '/api/v1/catalog/events/ev-br-serie-a-2')).body.event;
    assert.equal(event.competition.name, 'Brasileirão Série A');
    assert.equal(event.markets.length, 15);
    await assert.rejects(seedDemoCatalog(t.app.services, t.clock), /not empty/);
  });

  it('serve --demo-live is refused outside development, before anything starts', async () => {
    await assert.rejects(
      startServer(testConfig({ APP_ENV: 'staging' }), { demoLive: true }),
      /the demo live simulator runs only with APP_ENV=development/,
    );
  });
});

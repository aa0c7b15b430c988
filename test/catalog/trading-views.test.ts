import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let trader: string;
let admin: string;
let operator: string;
/** The catalog built in before(): ids by a short name. */
const ids: Record<string, string> = {};

const trade = async (method: string, path: string, body?: unknown) => {
  const response = await t.request(method, `/api/v1/admin/trading${path}`, {
    token: trader,
    ...(body === undefined ? {} : { body }),
  });
  assert.ok(response.status < 300, `${method} ${path}: ${response.text}`);
  return response.body;
};
const read = (path: string, token = trader) => t.request('GET', `/api/v1/admin/trading${path}`, { token });
const eventIds = (response: { body: { events: Array<{ id: string }> } }) =>
  response.body.events.map((event) => event.id);

async function event(key: string, competition: string, home: string, away: string, startsAt: string) {
  ids[key] = (await trade('POST', '/events', { competitionId: ids[competition], home, away, startsAt })).event.id;
}
async function market(eventKey: string, marketKey: string) {
  const created = await trade('POST', `/events/${ids[eventKey]}/markets`, {
    type: 'both_teams_to_score',
    selections: [
      { name: 'Yes', outcome: 'yes', odds: '1.80' },
      { name: 'No', outcome: 'no', odds: '2.00' },
    ],
  });
  ids[marketKey] = created.market.id;
  return created.market as { id: string; selections: Array<{ id: string }> };
}

/**
 * Two sports, four competitions (one named with LIKE wildcards), five events of every status, markets of every
 * status. Start times (the test clock is 2026-03-01 12:00 UTC): liverpool 1 Mar 11:00 (live, 1-0), lakers 2 Mar
 * 01:00, arsenal 2 Mar 15:00, clasico 3 Mar 20:00 (finished), cup 4 Mar 10:00 (cancelled).
 */
before(async () => {
  t = await startTestApp();
  trader = (await loginAsStaff(t, 'trader')).token;
  admin = (await loginAsStaff(t, 'platform_admin')).token;
  const tenant = await t.request('POST', '/api/v1/admin/tenants', {
    token: admin,
    body: {
      name: 'Sol Casino',
      currency: 'BRL',
      locale: 'pt-BR',
      jurisdiction: 'BR',
      walletUrl: 'https://wallet.sol.example/api',
      embedOrigins: ['https://www.sol.example'],
    },
  });
  operator = (await loginAsStaff(t, 'operator', { tenantId: tenant.body.tenant.id })).token;
  await trade('POST', '/sports', { id: 'soccer', name: 'Soccer', sortOrder: 1 });
  await trade('POST', '/sports', { id: 'basketball', name: 'Basketball', sortOrder: 2 });
  await trade('POST', '/sports', { id: 'tennis', name: 'Tennis', sortOrder: 3 });
  for (const [key, sportId, name, country] of [
    ['pl', 'soccer', 'Premier League', 'England'],
    ['liga', 'soccer', 'La Liga', 'Spain'],
    ['cup', 'soccer', '100%_Cup', 'World'],
    ['nba', 'basketball', 'NBA', 'USA'],
  ] as const) {
    ids[key] = (await trade('POST', '/competitions', { sportId, name, country })).competition.id;
  }
  await event('arsenal', 'pl', 'Arsenal', 'Chelsea', '2026-03-02T15:00:00Z');
  await event('liverpool', 'pl', 'Liverpool', 'Everton', '2026-03-01T11:00:00Z');
  await event('clasico', 'liga', 'Real Madrid', 'Barcelona', '2026-03-03T20:00:00Z');
  await event('lakers', 'nba', 'Lakers', 'Celtics', '2026-03-02T01:00:00Z');
  await event('odd', 'cup', 'Foo_Bar', 'Baz%Qux', '2026-03-04T10:00:00Z');
  await trade('PATCH', `/events/${ids.liverpool}`, { status: 'live' });
  await trade('PATCH', `/events/${ids.liverpool}`, { score: { home: 1, away: 0 } });
  await trade('PATCH', `/events/${ids.clasico}`, { status: 'finished' });
  await trade('PATCH', `/events/${ids.odd}`, { status: 'cancelled' });
  await market('arsenal', 'arsenalOpen');
  await market('arsenal', 'arsenalSuspended');
  await trade('PATCH', `/markets/${ids.arsenalSuspended}`, { status: 'suspended' });
  await market('liverpool', 'liverpoolClosed');
  await trade('PATCH', `/markets/${ids.liverpoolClosed}`, { status: 'closed' });
  const settled = await market('clasico', 'clasicoSettled');
  const [yes, no] = settled.selections;
  const result = await t.request('POST', `/api/v1/admin/trading/markets/${settled.id}/settle`, {
    token: trader,
    body: {
      results: [
        { selectionId: yes!.id, result: 'won' },
        { selectionId: no!.id, result: 'lost' },
      ],
    },
  });
  assert.equal(result.status, 200, result.text);
});
after(() => t.close());

const none = { open: 0, suspended: 0, closed: 0, settled: 0 };
const noEvents = { scheduled: 0, live: 0, finished: 0, cancelled: 0 };

describe("the traders' event list", () => {
  it('lists every event soonest first with its sport, competition, score and market counts by status', async () => {
    const response = await read('/events');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(eventIds(response), [ids.liverpool, ids.lakers, ids.arsenal, ids.clasico, ids.odd]);
    assert.equal(response.body.nextCursor, '');
    const [liverpool, , arsenal] = response.body.events;
    assert.deepEqual(liverpool, {
      id: ids.liverpool,
      name: 'Liverpool vs Everton',
      sport: { id: 'soccer', name: 'Soccer' },
      competition: { id: ids.pl, name: 'Premier League', country: 'England' },
      home: 'Liverpool',
      away: 'Everton',
      startsAt: '2026-03-01T11:00:00.000Z',
      status: 'live',
      score: { home: 1, away: 0 },
      period: null,
      clock: null,
      betDelaySeconds: 0,
      markets: { ...none, closed: 1 },
    });
    assert.deepEqual(
      [arsenal.status, arsenal.score, arsenal.markets],
      ['scheduled', null, { ...none, open: 1, suspended: 1 }],
    );
    assert.deepEqual(response.body.events[3].markets, { ...none, settled: 1 });
    assert.deepEqual(response.body.events[1].markets, none);
  });

  it('sorts latest first with sort=-startsAt', async () => {
    assert.deepEqual(eventIds(await read('/events?sort=-startsAt')), [
      ids.odd,
      ids.clasico,
      ids.arsenal,
      ids.lakers,
      ids.liverpool,
    ]);
  });

  it('pages with a cursor both ways, every event once', async () => {
    for (const [sort, expected] of [
      ['startsAt', [ids.liverpool, ids.lakers, ids.arsenal, ids.clasico, ids.odd]],
      ['-startsAt', [ids.odd, ids.clasico, ids.arsenal, ids.lakers, ids.liverpool]],
    ] as const) {
      const seen: string[] = [];
      let cursor = '';
      let pages = 0;
      do {
        const response = await read(`/events?sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(response.status, 200, response.text);
        seen.push(...eventIds(response));
        cursor = response.body.nextCursor;
        pages += 1;
      } while (cursor);
      assert.deepEqual([seen, pages], [expected, 3], sort);
    }
  });

  it('filters by status (repeated), sport, competition and start time', async () => {
    assert.deepEqual(eventIds(await read('/events?status=live')), [ids.liverpool]);
    assert.deepEqual(eventIds(await read('/events?status=finished&status=cancelled')), [ids.clasico, ids.odd]);
    assert.deepEqual(eventIds(await read('/events?sportId=basketball')), [ids.lakers]);
    assert.deepEqual(eventIds(await read(`/events?competitionId=${ids.pl}&sort=-startsAt`)), [
      ids.arsenal,
      ids.liverpool,
    ]);
    assert.deepEqual(
      eventIds(await read('/events?startsFrom=2026-03-02T01:00:00Z&startsTo=2026-03-03T20:00:00Z')),
      [ids.lakers, ids.arsenal, ids.clasico],
      'both ends included',
    );
    assert.deepEqual(eventIds(await read('/events?sportId=soccer&status=scheduled')), [ids.arsenal]);
    assert.deepEqual(eventIds(await read('/events?sportId=tennis')), []);
  });

  it('searches event and competition names ignoring case; LIKE wildcards are plain characters', async () => {
    assert.deepEqual(eventIds(await read('/events?q=CHELSEA')), [ids.arsenal]);
    assert.deepEqual(eventIds(await read('/events?q=ers%20vs%20cel')), [ids.lakers]);
    assert.deepEqual(eventIds(await read('/events?q=premier')), [ids.liverpool, ids.arsenal], 'competition name');
    assert.deepEqual(eventIds(await read('/events?q=%25')), [ids.odd], '% matches only a %');
    assert.deepEqual(eventIds(await read('/events?q=_')), [ids.odd], '_ matches only an _');
    assert.deepEqual(eventIds(await read('/events?q=o_B')), [ids.odd]);
    assert.deepEqual(eventIds(await read('/events?q=%5C')), [], 'a backslash matches only a backslash');
    assert.deepEqual(eventIds(await read('/events?q=Arsenal%25Chelsea')), []);
  });

  it('takes limits from 1 to 100', async () => {
    assert.equal(eventIds(await read('/events?limit=1')).length, 1);
    assert.equal(eventIds(await read('/events?limit=100')).length, 5);
  });

  it('refuses what it cannot read with 400 validation naming the field', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
      [`cursor=${Buffer.from('2026-03-01T00:00:00.000Z|\u0000x').toString('base64url')}`, 'cursor'],
      [`cursor=${Buffer.from('-271821-04-20T00:00:00.000Z|x').toString('base64url')}`, 'cursor'],
      ['status=postponed', 'status'],
      ['status=live,finished', 'status'],
      ['sort=startsat', 'sort'],
      ['startsFrom=tomorrow', 'startsFrom'],
      ['startsFrom=2026-03-02T00:00:00Z&startsTo=2026-03-01T00:00:00Z', 'startsTo'],
      ['startsFrom=0000-01-01T00:00:00Z', 'startsFrom'],
      ['q=', 'q'],
      [`q=${'x'.repeat(101)}`, 'q'],
      ['q=a%00b', 'q'],
      ['sportId=a%00b', 'sportId'],
      [`competitionId=${'c'.repeat(65)}`, 'competitionId'],
    ] as const) {
      const response = await read(`/events?${query}`);
      assert.deepEqual(
        [response.status, response.body?.error?.code, response.body?.error?.details?.field?.replace(/\.0$/, '')],
        [400, 'validation', field],
        `${query}: ${response.text}`,
      );
    }
    const unknown = await read('/events?page=2');
    assert.deepEqual([unknown.status, unknown.body.error.code], [400, 'validation']);
  });

  it('is for traders and platform administrators only', async () => {
    assert.equal((await read('/events', admin)).status, 200);
    for (const path of ['/events', '/sports', '/competitions', `/events/${ids.arsenal}`]) {
      const refused = await read(path, operator);
      assert.deepEqual([refused.status, refused.body.error.code], [403, 'forbidden'], path);
      const anonymous = await t.request('GET', `/api/v1/admin/trading${path}`);
      assert.deepEqual([anonymous.status, anonymous.body.error.code], [401, 'unauthorized'], path);
    }
  });
});

describe("the traders' catalog tree", () => {
  it('lists every sport in its order with competition and event counts', async () => {
    const response = await read('/sports');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      sports: [
        {
          id: 'soccer',
          name: 'Soccer',
          sortOrder: 1,
          liveDelaySeconds: 0,
          competitionCount: 3,
          events: { scheduled: 1, live: 1, finished: 1, cancelled: 1 },
        },
        {
          id: 'basketball',
          name: 'Basketball',
          sortOrder: 2,
          liveDelaySeconds: 0,
          competitionCount: 1,
          events: { ...noEvents, scheduled: 1 },
        },
        { id: 'tennis', name: 'Tennis', sortOrder: 3, liveDelaySeconds: 0, competitionCount: 0, events: noEvents },
      ],
    });
  });

  it('lists competitions by name, of a sport or all, searched, paged', async () => {
    const all = await read('/competitions');
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body.competitions[0], {
      id: ids.cup,
      name: '100%_Cup',
      country: 'World',
      sport: { id: 'soccer', name: 'Soccer' },
      events: { ...noEvents, cancelled: 1 },
    });
    const names = (response: { body: { competitions: Array<{ name: string }> } }) =>
      response.body.competitions.map((competition) => competition.name);
    assert.deepEqual(names(all), ['100%_Cup', 'La Liga', 'NBA', 'Premier League']);
    assert.deepEqual(all.body.competitions[3].events, { ...noEvents, scheduled: 1, live: 1 });
    assert.deepEqual(names(await read('/competitions?sportId=basketball')), ['NBA']);
    assert.deepEqual(names(await read('/competitions?q=LIGA')), ['La Liga']);
    assert.deepEqual(names(await read('/competitions?q=%25')), ['100%_Cup']);
    const first = await read('/competitions?limit=3');
    assert.deepEqual(names(first), ['100%_Cup', 'La Liga', 'NBA']);
    const second = await read(`/competitions?limit=3&cursor=${first.body.nextCursor}`);
    assert.deepEqual([names(second), second.body.nextCursor], [['Premier League'], '']);
    for (const query of ['limit=0', 'limit=101', 'cursor=bm90LWEtY3Vyc29y', 'q=a%00b', 'country=England']) {
      const refused = await read(`/competitions?${query}`);
      assert.deepEqual([refused.status, refused.body.error.code], [400, 'validation'], query);
    }
    assert.equal((await read('/competitions?limit=100')).body.competitions.length, 4);
    assert.deepEqual(names(await read('/competitions?limit=1')), ['100%_Cup']);
    assert.equal((await read('/sports?limit=1')).status, 400, 'the sports list takes no parameters');
  });

  it('shows one event with every market, whatever its status, with results', async () => {
    const response = await read(`/events/${ids.clasico}`);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.event.status, 'finished');
    assert.deepEqual(
      response.body.event.markets.map((m: { id: string; status: string; settlementVersion: number }) => [
        m.id,
        m.status,
        m.settlementVersion,
      ]),
      [[ids.clasicoSettled, 'settled', 1]],
    );
    assert.deepEqual(
      response.body.event.markets[0].selections.map((s: { result: string }) => s.result),
      ['won', 'lost'],
    );
    const arsenal = await read(`/events/${ids.arsenal}`);
    assert.deepEqual(
      arsenal.body.event.markets.map((m: { status: string }) => m.status),
      ['open', 'suspended'],
    );
    const unknown = await read('/events/ev_nope');
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
    const nul = await read('/events/ev%00nope');
    assert.deepEqual([nul.status, nul.body.error.code], [400, 'validation']);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seedDemoCatalog } from '../../src/seed/demo-catalog.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  await seedDemoCatalog(t.app.services, t.clock);
});
after(() => t.close());

const search = (q: string) => t.request('GET', `/api/v1/catalog/search?q=${encodeURIComponent(q)}`);
const teams = (body: { events: Array<{ home: string; away: string }> }) =>
  body.events.map((event) => `${event.home} vs ${event.away}`);

describe('catalog search', () => {
  it('ignores case and accents, in the search and in the names', async () => {
    for (const q of ['gremio', 'GRÊMIO', 'Gre\u0302mio', '  grêmio ']) {
      const found = await search(q);
      assert.equal(found.status, 200, q);
      assert.deepEqual(teams(found.body), ['Fluminense vs Grêmio'], q);
    }
    assert.deepEqual(teams((await search('sao paulo')).body), ['Corinthians vs São Paulo']);
    assert.deepEqual(teams((await search('PENAROL')).body), ['Peñarol vs Nacional']);
  });

  it('finds events whose teams hold every word, with their header as the event lists give it', async () => {
    assert.deepEqual(teams((await search('flamengo palmeiras')).body), ['Flamengo vs Palmeiras']);
    assert.deepEqual(teams((await search('flamengo franca')).body), ['Flamengo Basquete vs Franca']);
    const found = (await search('flamengo palmeiras')).body.events[0];
    const listed = (await t.request('GET', '/api/v1/catalog/live?sport=soccer')).body.events;
    assert.deepEqual(
      found,
      listed.find((event: { id: string }) => event.id === found.id),
    );
  });

  it('finds competitions by name or country, with their sport, by name', async () => {
    const premier = await search('premier');
    assert.deepEqual(premier.body, {
      competitions: [
        { id: 'premier-league', name: 'Premier League', country: 'England', sport: { id: 'soccer', name: 'Soccer' } },
      ],
      events: [],
    });
    assert.deepEqual(
      (await search('brazil')).body.competitions.map((competition: { id: string }) => competition.id),
      ['br-serie-a', 'nbb'],
    );
    assert.deepEqual(
      (await search('brasileirao')).body.competitions.map((competition: { id: string }) => competition.id),
      ['br-serie-a'],
    );
  });

  it('lists live events first, then by start time, and never an event that is over', async () => {
    const found = (await search('real')).body.events;
    assert.deepEqual(
      found.map((event: { home: string; status: string }) => [event.home, event.status]),
      [
        ['Real Madrid', 'live'],
        ['Real Sociedad', 'scheduled'],
      ],
    );
    const trader = (await loginAsStaff(t, 'trader')).token;
    await t.request('PATCH', `/api/v1/admin/trading/events/${found[1].id}`, {
      token: trader,
      body: { status: 'finished' },
    });
    assert.deepEqual(teams((await search('real')).body), ['Real Madrid vs Barcelona']);
  });

  it('treats % and _ as plain characters', async () => {
    assert.deepEqual((await search('%%')).body, { competitions: [], events: [] });
    assert.deepEqual((await search('__')).body, { competitions: [], events: [] });
  });

  it('refuses a search shorter than 2 characters besides spaces, or longer than 64', async () => {
    for (const q of ['a', '  a  ', ' '.repeat(10), 'a'.repeat(65)]) {
      const refused = await search(q);
      assert.deepEqual(
        [refused.status, refused.body.error.code, refused.body.error.details.field],
        [400, 'validation', 'q'],
        JSON.stringify(q),
      );
    }
    assert.equal((await search('a'.repeat(64))).status, 200);
    const missing = await t.request('GET', '/api/v1/catalog/search');
    assert.deepEqual([missing.status, missing.body.error.code], [400, 'validation']);
  });

  it('refuses control characters, NUL and lone surrogates without failing', async () => {
    for (const q of ['ab\u0001', 'ab\u007f', 'ab\u0085', 'ab\n', 'ab\u0000']) {
      const refused = await search(q);
      assert.deepEqual([refused.status, refused.body.error.code], [400, 'validation'], JSON.stringify(q));
    }
    const surrogate = await t.request('GET', '/api/v1/catalog/search?q=ab%ED%A0%80');
    assert.deepEqual([surrogate.status, surrogate.body.error.code], [400, 'malformed_url']);
    const unknown = await t.request('GET', '/api/v1/catalog/search?q=ab&sport=soccer');
    assert.deepEqual([unknown.status, unknown.body.error.code], [400, 'validation']);
  });
});

describe('live counts', () => {
  it('each sport carries how many of its events are in play', async () => {
    const sports = (await t.request('GET', '/api/v1/catalog/sports')).body.sports;
    const live = (await t.request('GET', '/api/v1/catalog/live')).body.events;
    assert.deepEqual(
      sports.map((sport: { id: string; liveCount: number }) => [sport.id, sport.liveCount]),
      ['soccer', 'basketball', 'tennis'].map((id) => [
        id,
        live.filter((event: { sport: { id: string } }) => event.sport.id === id).length,
      ]),
    );
    assert.deepEqual(
      sports.map((sport: { liveCount: number }) => sport.liveCount),
      [3, 2, 1],
    );
  });
});

describe('search limits', () => {
  it('answers at most 10 competitions and 20 events', async () => {
    const trader = (await loginAsStaff(t, 'trader')).token;
    const trade = async (path: string, body: unknown) =>
      (await t.request('POST', `/api/v1/admin/trading${path}`, { token: trader, body })).body;
    for (let index = 0; index < 12; index++) {
      const { competition } = await trade('/competitions', {
        sportId: 'soccer',
        name: `Copa Zeta ${index}`,
        country: 'Chile',
      });
      if (index === 0) {
        for (let round = 0; round < 12; round++) {
          for (const away of ['Norte', 'Sur'])
            await trade('/events', {
              competitionId: competition.id,
              home: `Zeta ${round}`,
              away,
              startsAt: new Date(t.clock.now().getTime() + (round + 1) * 3_600_000).toISOString(),
            });
        }
      }
    }
    const found = (await search('zeta')).body;
    assert.equal(found.competitions.length, 10);
    assert.equal(found.events.length, 20);
    assert.deepEqual(found.events[0].home, 'Zeta 0');
  });
});

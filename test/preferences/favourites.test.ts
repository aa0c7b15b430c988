import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant, openSession, type TestTenant } from '../helpers/tenant.ts';

/**
 * A player's favourite events and competitions, kept on the server: per player and tenant environment, idempotent
 * both ways, checked against the catalog, at most 200.
 */
let t: TestApp;
let admin: string;
let trader: string;
let tenant: TestTenant;
let token: string;
/** Two competitions of one sport; the first with two events (the first with a 1X2 market), the second with one. */
let catalog: { competitions: [string, string]; events: [string, string, string] };

before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(async () => {
  await t.reset();
  admin = (await loginAsStaff(t, 'platform_admin')).token;
  trader = (await loginAsStaff(t, 'trader')).token;
  tenant = await createTenant(t, admin);
  catalog = await makeCatalog();
  token = await playerToken(tenant, 'p-1');
});

async function trade(method: string, path: string, body: unknown) {
  const response = await t.request(method, `/api/v1/admin/trading${path}`, { token: trader, body });
  assert.ok(response.status < 300, `${method} ${path}: ${response.text}`);
  return response.body;
}

async function makeCatalog(): Promise<typeof catalog> {
  await trade('POST', '/sports', { id: 'soccer', name: 'Soccer' });
  const first = (await trade('POST', '/competitions', { sportId: 'soccer', name: 'Série A', country: 'Brazil' }))
    .competition.id;
  const second = (await trade('POST', '/competitions', { sportId: 'soccer', name: 'La Liga', country: 'Spain' }))
    .competition.id;
  const event = async (competitionId: string, home: string, away: string) =>
    (
      await trade('POST', '/events', {
        competitionId,
        home,
        away,
        startsAt: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
      })
    ).event.id as string;
  const events: [string, string, string] = [
    await event(first, 'Flamengo', 'Palmeiras'),
    await event(first, 'Santos', 'Grêmio'),
    await event(second, 'Betis', 'Sevilla'),
  ];
  await trade('POST', `/events/${events[0]}/markets`, {
    type: 'match_result',
    selections: [
      { name: 'Flamengo', outcome: 'home', odds: '2.10' },
      { name: 'Draw', outcome: 'draw', odds: '3.25' },
      { name: 'Palmeiras', outcome: 'away', odds: '3.60' },
    ],
  });
  return { competitions: [first, second], events };
}

async function playerToken(of: TestTenant, externalPlayerId: string): Promise<string> {
  const response = await openSession(t, of, { externalPlayerId });
  assert.equal(response.status, 200, response.text);
  return response.body.token;
}

/** The event as the catalog's competition list shows it. */
async function listedEvent(eventId: string) {
  for (const competitionId of catalog.competitions) {
    const { body } = await t.request('GET', `/api/v1/catalog/competitions/${competitionId}`);
    const found = body.events.find((event: { id: string }) => event.id === eventId);
    if (found) return found;
  }
  throw new Error(`${eventId} is in no competition list`);
}

const SERIE_A = (id: string) => ({ id, name: 'Série A', country: 'Brazil', sport: { id: 'soccer', name: 'Soccer' } });
const LA_LIGA = (id: string) => ({ id, name: 'La Liga', country: 'Spain', sport: { id: 'soccer', name: 'Soccer' } });

const addEvent = (eventId: string, as = token) =>
  t.request('PUT', `/api/v1/favourites/events/${eventId}`, { token: as });
const addCompetition = (competitionId: string, as = token) =>
  t.request('PUT', `/api/v1/favourites/competitions/${competitionId}`, { token: as });
const list = (as = token) => t.request('GET', '/api/v1/favourites', { token: as });
const later = (seconds: number) => t.clock.set(new Date(t.clock.now().getTime() + seconds * 1000).toISOString());

async function rowsOf(externalId: string) {
  const { rows } = await sql<{ kind: string; target_id: string }>`
    select f.kind, f.target_id from player_favourites f join players p on p.id = f.player_id
    where p.external_id = ${externalId} order by f.kind, f.target_id`.execute(t.db);
  return rows.map((row) => `${row.kind}:${row.target_id}`);
}

describe('the player session', () => {
  it('every favourites and settings call without a session token is 401 unauthorized', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/favourites'],
      ['PUT', `/api/v1/favourites/events/${catalog.events[0]}`],
      ['DELETE', `/api/v1/favourites/events/${catalog.events[0]}`],
      ['PUT', `/api/v1/favourites/competitions/${catalog.competitions[0]}`],
      ['DELETE', `/api/v1/favourites/competitions/${catalog.competitions[0]}`],
      ['GET', '/api/v1/settings'],
      ['PATCH', '/api/v1/settings', { oddsFormat: 'american' }],
    ];
    for (const [method, path, body] of calls) {
      const response = await t.request(method, path, { body });
      assert.equal(response.status, 401, `${method} ${path}`);
      assert.deepEqual(response.body, {
        error: { code: 'unauthorized', message: 'A player session token is required (Authorization: Bearer).' },
      });
    }
    assert.deepEqual(await rowsOf('p-1'), []);
  });

  it('a token that is no session is 401 too', async () => {
    const response = await list(`bm_sess_${'x'.repeat(43)}`);
    assert.equal(response.status, 401);
    assert.equal(response.body.error.code, 'unauthorized');
  });
});

describe('listing favourites', () => {
  it('a new player has none', async () => {
    const response = await list();
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { events: [], competitions: [] });
  });

  it('each event as the catalog lists show it, each competition with its sport, each kind newest first', async () => {
    await addEvent(catalog.events[0]);
    await addCompetition(catalog.competitions[1]);
    later(60);
    await addEvent(catalog.events[2]);
    await addCompetition(catalog.competitions[0]);
    const first = new Date(t.clock.now().getTime() - 60_000).toISOString();
    const second = t.clock.now().toISOString();
    const response = await list();
    assert.equal(response.status, 200);
    assert.equal(response.body.events[1].event.mainMarket.type, 'match_result');
    assert.equal(response.body.events[1].event.marketCount, 1);
    assert.deepEqual(response.body, {
      events: [
        { kind: 'event', id: catalog.events[2], addedAt: second, event: await listedEvent(catalog.events[2]) },
        { kind: 'event', id: catalog.events[0], addedAt: first, event: await listedEvent(catalog.events[0]) },
      ],
      competitions: [
        {
          kind: 'competition',
          id: catalog.competitions[0],
          addedAt: second,
          competition: SERIE_A(catalog.competitions[0]),
        },
        {
          kind: 'competition',
          id: catalog.competitions[1],
          addedAt: first,
          competition: LA_LIGA(catalog.competitions[1]),
        },
      ],
    });
  });

  it('an event stays a favourite once it is over, with its status', async () => {
    await addEvent(catalog.events[0]);
    await trade('PATCH', `/events/${catalog.events[0]}`, { status: 'cancelled' });
    const { body } = await list();
    assert.deepEqual(
      body.events.map((favourite: { id: string; event: { status: string } }) => [favourite.id, favourite.event.status]),
      [[catalog.events[0], 'cancelled']],
    );
  });

  it('favourites follow the player to a new session', async () => {
    await addEvent(catalog.events[1]);
    const again = await playerToken(tenant, 'p-1');
    assert.notEqual(again, token);
    const { body } = await list(again);
    assert.deepEqual(
      body.events.map((favourite: { id: string }) => favourite.id),
      [catalog.events[1]],
    );
  });
});

describe('adding a favourite', () => {
  it('an event: 201 with the favourite, the event as the catalog lists show it', async () => {
    const response = await addEvent(catalog.events[0]);
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, {
      favourite: {
        kind: 'event',
        id: catalog.events[0],
        addedAt: t.clock.now().toISOString(),
        event: await listedEvent(catalog.events[0]),
      },
    });
    assert.deepEqual(await rowsOf('p-1'), [`event:${catalog.events[0]}`]);
  });

  it('a competition: 201 with the favourite, the competition with its sport', async () => {
    const response = await addCompetition(catalog.competitions[0]);
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, {
      favourite: {
        kind: 'competition',
        id: catalog.competitions[0],
        addedAt: t.clock.now().toISOString(),
        competition: SERIE_A(catalog.competitions[0]),
      },
    });
  });

  it('adding one kept already is 200 with it as it was, addedAt of the first time; one row', async () => {
    const first = await addEvent(catalog.events[0]);
    const firstCompetition = await addCompetition(catalog.competitions[0]);
    later(60);
    const again = await addEvent(catalog.events[0]);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    const competitionAgain = await addCompetition(catalog.competitions[0]);
    assert.equal(competitionAgain.status, 200);
    assert.deepEqual(competitionAgain.body, firstCompetition.body);
    assert.deepEqual(await rowsOf('p-1'), [`competition:${catalog.competitions[0]}`, `event:${catalog.events[0]}`]);
  });

  it('an id the catalog does not have is 404 not_found, and nothing is kept', async () => {
    const event = await addEvent('ev_missing');
    assert.equal(event.status, 404);
    assert.deepEqual(event.body, { error: { code: 'not_found', message: 'Event not found.' } });
    const competition = await addCompetition('cp_missing');
    assert.equal(competition.status, 404);
    assert.deepEqual(competition.body, { error: { code: 'not_found', message: 'Competition not found.' } });
    // An event id is not a competition id, nor the reverse.
    assert.equal((await addCompetition(catalog.events[0])).status, 404);
    assert.equal((await addEvent(catalog.competitions[0])).status, 404);
    assert.deepEqual(await rowsOf('p-1'), []);
  });

  it('concurrent adds of the same favourite: one 201, the others 200 with the same body, one row', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => addEvent(catalog.events[0])));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 200, 200, 200, 200, 200, 200, 201]);
    for (const answer of answers) assert.deepEqual(answer.body, answers[0]!.body);
    assert.deepEqual(await rowsOf('p-1'), [`event:${catalog.events[0]}`]);
  });
});

describe('the limit of 200 favourites', () => {
  /** Fills the player's favourites up to `count` with events the catalog does not list (the list leaves them out). */
  async function keep(count: number) {
    const { id } = await t.db
      .selectFrom('players')
      .select('id')
      .where('external_id', '=', 'p-1')
      .executeTakeFirstOrThrow();
    const rows = Array.from({ length: count }, (_, i) => ({
      player_id: id,
      tenant_id: tenant.tenantId,
      kind: 'event' as const,
      target_id: `ev_gone_${i}`,
      created_at: t.clock.now(),
    }));
    await t.db.insertInto('player_favourites').values(rows).execute();
  }

  const FULL = {
    error: {
      code: 'favourites_full',
      message: 'The player keeps as many favourites as allowed (details.limit); remove one before adding another.',
      details: { limit: 200 },
    },
  };

  it('the 201st, event or competition, is 409 favourites_full with details.limit; nothing is kept', async () => {
    await keep(199);
    assert.equal((await addEvent(catalog.events[0])).status, 201);
    const event = await addEvent(catalog.events[1]);
    assert.equal(event.status, 409);
    assert.deepEqual(event.body, FULL);
    const competition = await addCompetition(catalog.competitions[0]);
    assert.equal(competition.status, 409);
    assert.deepEqual(competition.body, FULL);
    assert.equal((await rowsOf('p-1')).length, 200);
  });

  it('at the limit, adding one kept already is still 200, and removing one makes room', async () => {
    await keep(199);
    await addEvent(catalog.events[0]);
    assert.equal((await addEvent(catalog.events[0])).status, 200);
    const removed = await t.request('DELETE', '/api/v1/favourites/events/ev_gone_0', { token });
    assert.equal(removed.status, 204);
    assert.equal((await addEvent(catalog.events[1])).status, 201);
    assert.equal((await addEvent(catalog.events[2])).status, 409);
  });

  it('concurrent adds near the limit: exactly as many as fit are kept', async () => {
    await keep(198);
    const answers = await Promise.all([
      addEvent(catalog.events[0]),
      addEvent(catalog.events[1]),
      addEvent(catalog.events[2]),
      addCompetition(catalog.competitions[0]),
      addCompetition(catalog.competitions[1]),
    ]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 201, 409, 409, 409]);
    assert.equal((await rowsOf('p-1')).length, 200);
  });

  it('the limit is per player: another player adds freely', async () => {
    await keep(200);
    const other = await playerToken(tenant, 'p-2');
    assert.equal((await addEvent(catalog.events[0], other)).status, 201);
  });
});

describe('removing a favourite', () => {
  it('204 with no body; it is no longer listed', async () => {
    await addEvent(catalog.events[0]);
    await addCompetition(catalog.competitions[0]);
    const event = await t.request('DELETE', `/api/v1/favourites/events/${catalog.events[0]}`, { token });
    assert.equal(event.status, 204);
    assert.equal(event.text, '');
    const competition = await t.request('DELETE', `/api/v1/favourites/competitions/${catalog.competitions[0]}`, {
      token,
    });
    assert.equal(competition.status, 204);
    assert.deepEqual((await list()).body, { events: [], competitions: [] });
    assert.deepEqual(await rowsOf('p-1'), []);
  });

  it('removing one not kept, or one the catalog does not have, is 204 as well (afterwards it is not kept)', async () => {
    await addEvent(catalog.events[0]);
    for (const path of [
      `/api/v1/favourites/events/${catalog.events[1]}`,
      '/api/v1/favourites/events/ev_missing',
      `/api/v1/favourites/competitions/${catalog.events[0]}`,
      '/api/v1/favourites/competitions/cp_missing',
    ]) {
      const response = await t.request('DELETE', path, { token });
      assert.equal(response.status, 204, path);
    }
    assert.deepEqual(await rowsOf('p-1'), [`event:${catalog.events[0]}`]);
  });
});

describe('isolation', () => {
  it("a player sees only their own favourites and cannot remove another's", async () => {
    await addEvent(catalog.events[0]);
    await addCompetition(catalog.competitions[0]);
    const other = await playerToken(tenant, 'p-2');
    assert.deepEqual((await list(other)).body, { events: [], competitions: [] });
    for (const path of [
      `/api/v1/favourites/events/${catalog.events[0]}`,
      `/api/v1/favourites/competitions/${catalog.competitions[0]}`,
    ]) {
      assert.equal((await t.request('DELETE', path, { token: other })).status, 204);
    }
    assert.deepEqual(await rowsOf('p-1'), [`competition:${catalog.competitions[0]}`, `event:${catalog.events[0]}`]);
    assert.equal((await list()).body.events.length, 1);
  });

  it('the same casino player id in another tenant is another player, with favourites of their own', async () => {
    await addEvent(catalog.events[0]);
    const otherTenant = await createTenant(t, admin, { name: 'Lua Casino' });
    const elsewhere = await playerToken(otherTenant, 'p-1');
    assert.deepEqual((await list(elsewhere)).body, { events: [], competitions: [] });
    assert.equal((await addEvent(catalog.events[1], elsewhere)).status, 201);
    await t.request('DELETE', `/api/v1/favourites/events/${catalog.events[0]}`, { token: elsewhere });
    assert.deepEqual(
      (await list()).body.events.map((favourite: { id: string }) => favourite.id),
      [catalog.events[0]],
    );
    assert.deepEqual(
      (await list(elsewhere)).body.events.map((favourite: { id: string }) => favourite.id),
      [catalog.events[1]],
    );
  });
});

describe('bad input', () => {
  it('ids of 1 to 64 characters: 64 is looked up, 65 is 400 validation naming the field', async () => {
    assert.equal((await addEvent('e'.repeat(64))).status, 404);
    for (const [method, path, field] of [
      ['PUT', `/api/v1/favourites/events/${'e'.repeat(65)}`, 'eventId'],
      ['DELETE', `/api/v1/favourites/events/${'e'.repeat(65)}`, 'eventId'],
      ['PUT', `/api/v1/favourites/competitions/${'c'.repeat(65)}`, 'competitionId'],
      ['DELETE', `/api/v1/favourites/competitions/${'c'.repeat(65)}`, 'competitionId'],
    ] as const) {
      const response = await t.request(method, path, { token });
      assert.equal(response.status, 400, `${method} ${path}`);
      assert.equal(response.body.error.code, 'validation');
      assert.equal(response.body.error.details.field, field);
    }
  });

  it('a NUL character in an id is 400 validation; a surrogate alone in the URL is 400 malformed_url', async () => {
    const nul = {
      code: 'validation',
      message: 'Field "eventId" must not contain NUL characters or unpaired surrogates (params).',
      details: { field: 'eventId', in: 'params' },
    };
    const malformed = {
      code: 'malformed_url',
      message: "The URL's path has a malformed percent-encoding (%XX).",
      details: { in: 'path' },
    };
    for (const [id, error] of [
      ['a%00b', nul],
      ['%EF%BF%BF%00', nul],
      ['%ED%A0%80', malformed],
      ['a%F0%9Fb', malformed],
    ] as const) {
      for (const method of ['PUT', 'DELETE']) {
        const response = await t.request(method, `/api/v1/favourites/events/${id}`, { token });
        assert.equal(response.status, 400, `${method} ${id}`);
        assert.deepEqual(response.body, { error }, `${method} ${id}`);
      }
    }
    assert.deepEqual(await rowsOf('p-1'), []);
  });

  it('a query string is refused with 400 validation', async () => {
    const response = await t.request('GET', '/api/v1/favourites?kind=event', { token });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'validation');
  });
});

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant, openSession, type TestTenant } from '../helpers/tenant.ts';

/**
 * A player's settings, kept on the server: the odds format, which odds changes the slips accept, the quick stake
 * amounts. Null where the app's own default applies; changed field by field; per player and tenant environment.
 */
let t: TestApp;
let admin: string;
let tenant: TestTenant;
let token: string;

before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(async () => {
  await t.reset();
  admin = (await loginAsStaff(t, 'platform_admin')).token;
  tenant = await createTenant(t, admin);
  token = await playerToken(tenant, 'p-1');
});

async function playerToken(of: TestTenant, externalPlayerId: string): Promise<string> {
  const response = await openSession(t, of, { externalPlayerId });
  assert.equal(response.status, 200, response.text);
  return response.body.token;
}

const DEFAULTS = { oddsFormat: null, acceptOddsChanges: 'higher', quickStakes: null };
const read = (as = token) => t.request('GET', '/api/v1/settings', { token: as });
const change = (body: unknown, as = token) => t.request('PATCH', '/api/v1/settings', { token: as, body });

describe('reading settings', () => {
  it('a player who never chose gets the defaults: null odds format and quick stakes, slips accepting higher', async () => {
    const response = await read();
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { settings: DEFAULTS });
  });

  it('settings follow the player to a new session', async () => {
    await change({ oddsFormat: 'american', quickStakes: [500, 1000] });
    const again = await playerToken(tenant, 'p-1');
    assert.deepEqual((await read(again)).body, {
      settings: { oddsFormat: 'american', acceptOddsChanges: 'higher', quickStakes: [500, 1000] },
    });
  });
});

describe('changing settings', () => {
  it('sets every field given, answering 200 with every setting', async () => {
    const settings = { oddsFormat: 'fractional', acceptOddsChanges: 'none', quickStakes: [200, 100, 5000, 1] };
    const response = await change(settings);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { settings });
    assert.deepEqual((await read()).body, { settings });
  });

  it('keeps each field left out', async () => {
    await change({ oddsFormat: 'fractional', quickStakes: [100] });
    assert.deepEqual((await change({ acceptOddsChanges: 'any' })).body, {
      settings: { oddsFormat: 'fractional', acceptOddsChanges: 'any', quickStakes: [100] },
    });
    assert.deepEqual((await change({ quickStakes: [300, 200] })).body, {
      settings: { oddsFormat: 'fractional', acceptOddsChanges: 'any', quickStakes: [300, 200] },
    });
    assert.deepEqual((await change({})).body, {
      settings: { oddsFormat: 'fractional', acceptOddsChanges: 'any', quickStakes: [300, 200] },
    });
  });

  it("null sets the odds format and the quick stakes back to the app's default", async () => {
    await change({ oddsFormat: 'american', acceptOddsChanges: 'any', quickStakes: [100] });
    assert.deepEqual((await change({ oddsFormat: null, quickStakes: null })).body, {
      settings: { ...DEFAULTS, acceptOddsChanges: 'any' },
    });
  });

  it('an empty change by a player who never chose answers the defaults', async () => {
    assert.deepEqual((await change({})).body, { settings: DEFAULTS });
  });

  it('two changes of different fields at once both stay', async () => {
    const answers = await Promise.all([change({ oddsFormat: 'american' }), change({ quickStakes: [700] })]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200],
    );
    assert.deepEqual((await read()).body, {
      settings: { oddsFormat: 'american', acceptOddsChanges: 'higher', quickStakes: [700] },
    });
  });
});

describe('bounds and bad input', () => {
  it('quick stakes: 1 to 4 distinct whole amounts from 1 to 1,000,000,000,000 minor units', async () => {
    const largest = [1, 1_000_000_000_000];
    assert.deepEqual((await change({ quickStakes: largest })).body.settings.quickStakes, largest);
    assert.deepEqual((await change({ quickStakes: [1, 2, 3, 4] })).body.settings.quickStakes, [1, 2, 3, 4]);
    const refused: Array<[unknown, string, string]> = [
      [[1, 2, 3, 4, 5], 'quickStakes', 'Field "quickStakes" may have at most 4 items.'],
      [[], 'quickStakes', 'Field "quickStakes" needs at least 1 item.'],
      [[0], 'quickStakes.0', 'Field "quickStakes.0" must be at least 1.'],
      [[100, -5], 'quickStakes.1', 'Field "quickStakes.1" must be at least 1.'],
      [[1_000_000_000_001], 'quickStakes.0', 'Field "quickStakes.0" must be at most 1000000000000.'],
      [[10.5], 'quickStakes.0', 'Field "quickStakes.0" must be an integer.'],
      [['100'], 'quickStakes.0', 'Field "quickStakes.0" must be an integer.'],
      [[500, 500], 'quickStakes', 'Field "quickStakes" must not repeat an item (items 0 and 1 are the same).'],
      [100, 'quickStakes', 'Field "quickStakes" must be an array.'],
    ];
    for (const [quickStakes, field, message] of refused) {
      const response = await change({ quickStakes });
      assert.equal(response.status, 400, JSON.stringify(quickStakes));
      assert.deepEqual(response.body, { error: { code: 'validation', message, details: { field, in: 'body' } } });
    }
    assert.deepEqual((await read()).body.settings.quickStakes, [1, 2, 3, 4]);
  });

  it('odds format and odds changes take only their values; acceptOddsChanges is never null', async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ oddsFormat: 'decimals' }, 'oddsFormat'],
      [{ oddsFormat: 'DECIMAL' }, 'oddsFormat'],
      [{ oddsFormat: 1 }, 'oddsFormat'],
      [{ acceptOddsChanges: 'lower' }, 'acceptOddsChanges'],
      [{ acceptOddsChanges: null }, 'acceptOddsChanges'],
    ];
    for (const [body, field] of refused) {
      const response = await change(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.error.code, 'validation');
      assert.deepEqual(response.body.error.details, { field, in: 'body' });
    }
    assert.deepEqual((await read()).body, { settings: DEFAULTS });
  });

  it('an unknown field is refused with 400 validation naming it, and nothing changes', async () => {
    const response = await change({ oddsFormat: 'american', theme: 'dark' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, {
      error: { code: 'validation', message: 'Unknown field "theme".', details: { field: 'theme', in: 'body' } },
    });
    assert.deepEqual((await read()).body, { settings: DEFAULTS });
  });

  it('a NUL character or a lone surrogate in a value is 400 validation, never a server error', async () => {
    for (const rawBody of ['{"oddsFormat":"decimal\\u0000"}', '{"oddsFormat":"\\ud800"}']) {
      const response = await t.request('PATCH', '/api/v1/settings', { token, rawBody });
      assert.equal(response.status, 400, rawBody);
      assert.equal(response.body.error.code, 'validation');
      assert.deepEqual(response.body.error.details, { field: 'oddsFormat', in: 'body' });
    }
  });

  it('a body that is not a JSON object is 400', async () => {
    for (const rawBody of ['[]', '"american"', 'null']) {
      const response = await t.request('PATCH', '/api/v1/settings', { token, rawBody });
      assert.equal(response.status, 400, rawBody);
      assert.deepEqual(response.body, {
        error: {
          code: 'validation',
          message: 'Field "(root)" must be an object.',
          details: { field: '(root)', in: 'body' },
        },
      });
    }
    const broken = await t.request('PATCH', '/api/v1/settings', { token, rawBody: '{"oddsFormat":' });
    assert.equal(broken.status, 400);
    assert.deepEqual(broken.body, { error: { code: 'bad_request', message: 'The body is not valid JSON.' } });
  });
});

describe('isolation', () => {
  it("a player's settings are their own", async () => {
    await change({ oddsFormat: 'american', acceptOddsChanges: 'any', quickStakes: [100] });
    const other = await playerToken(tenant, 'p-2');
    assert.deepEqual((await read(other)).body, { settings: DEFAULTS });
    await change({ oddsFormat: 'decimal' }, other);
    assert.deepEqual((await read()).body, {
      settings: { oddsFormat: 'american', acceptOddsChanges: 'any', quickStakes: [100] },
    });
  });

  it('the same casino player id in another tenant has settings of their own', async () => {
    await change({ oddsFormat: 'american' });
    const otherTenant = await createTenant(t, admin, { name: 'Lua Casino' });
    const elsewhere = await playerToken(otherTenant, 'p-1');
    assert.deepEqual((await read(elsewhere)).body, { settings: DEFAULTS });
    await change({ quickStakes: [1000] }, elsewhere);
    assert.deepEqual((await read()).body.settings.quickStakes, null);
  });
});

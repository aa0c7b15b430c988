import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { authorizationBody, createClientBody, setUpAggregator, type AggregatorFixture } from '../helpers/aggregator.ts';
import { startWalletPair, type WalletPair } from '../helpers/wallet.ts';

/**
 * The authorization's allowed source IPs: how the platform sets them (normalised, each bad entry named) and how the
 * aggregator API enforces them after the key check. The test server trusts itself as a proxy (TRUST_PROXY), so each
 * request names its client address with X-Forwarded-For; without the header the client is 127.0.0.1.
 */
let t: TestApp;
let wallets: WalletPair;
let admin: string;
before(async () => {
  t = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
  wallets = await startWalletPair(t.clock);
});
after(async () => {
  await t.close();
  await wallets.close();
});
beforeEach(async () => {
  await t.reset();
  admin = (await loginAsStaff(t, 'platform_admin')).token;
});

const ORIGINS = ['https://wallet.acme.example'];

async function newAggregator(): Promise<string> {
  const response = await t.request('POST', '/api/v1/admin/aggregators', { token: admin, body: { name: 'Acme' } });
  assert.equal(response.status, 201);
  return response.body.aggregator.id;
}

const putAuthorization = (id: string, overrides: Record<string, unknown> = {}, origins = ORIGINS) =>
  t.request('PUT', `/api/v1/admin/aggregators/${id}/authorization`, {
    token: admin,
    body: authorizationBody(t, origins, overrides),
  });

const validation = (field: string, message: string) => ({ error: { code: 'validation', message, details: { field } } });

describe('allowed source IPs in the authorization', () => {
  it('accepts addresses and CIDR ranges of both families, stored normalised and returned in the record', async () => {
    const id = await newAggregator();
    const response = await putAuthorization(id, {
      allowedIps: [
        '203.0.113.7',
        '198.51.100.0/24',
        '2001:DB8::/32',
        '2001:0db8:0:0:0:0:0:7',
        '192.0.2.9/32',
        '::ffff:192.0.2.10',
        '::ffff:192.0.2.128/121',
        '2001:db8:1::1/128',
        '10.0.0.0/8',
      ],
    });
    assert.equal(response.status, 200, response.text);
    const normalised = [
      '203.0.113.7',
      '198.51.100.0/24',
      '2001:db8::/32',
      '2001:db8::7',
      '192.0.2.9',
      '192.0.2.10',
      '192.0.2.128/25',
      '2001:db8:1::1',
      '10.0.0.0/8',
    ];
    assert.deepEqual(response.body.authorization.allowedIps, normalised);
    const read = await t.request('GET', `/api/v1/admin/aggregators/${id}`, { token: admin });
    assert.deepEqual(read.body.aggregator.authorization.allowedIps, normalised);
    assert.deepEqual(read.body.aggregator.authorization, response.body.authorization);
  });

  it('absent or empty means any address: the record says []', async () => {
    const id = await newAggregator();
    const absent = await putAuthorization(id);
    assert.equal(absent.status, 200);
    assert.deepEqual(absent.body.authorization.allowedIps, []);
    const set = await putAuthorization(id, { allowedIps: ['203.0.113.7'] });
    assert.deepEqual(set.body.authorization.allowedIps, ['203.0.113.7']);
    const emptied = await putAuthorization(id, { allowedIps: [] });
    assert.equal(emptied.status, 200);
    assert.deepEqual(emptied.body.authorization.allowedIps, []);
    assert.equal(emptied.body.authorization.version, 3);
  });

  const NOT_AN_ADDRESS =
    'not an IP address or CIDR range: write an IPv4 or IPv6 address (203.0.113.7, 2001:db8::7) or a range ' +
    '(198.51.100.0/24, 2001:db8::/32), without host names, ports or schemes.';
  const refusals: Array<[string, string]> = [
    ['wallet.acme.example', NOT_AN_ADDRESS],
    ['localhost', NOT_AN_ADDRESS],
    ['203.0.113.7:8443', NOT_AN_ADDRESS],
    ['[2001:db8::1]:443', NOT_AN_ADDRESS],
    ['https://203.0.113.7', 'not an IP address or CIDR range.'],
    ['198.51.100.0/24/8', 'not an IP address or CIDR range.'],
    ['127.1', NOT_AN_ADDRESS],
    ['010.0.0.1', NOT_AN_ADDRESS],
    ['0x7f.0.0.1', NOT_AN_ADDRESS],
    [' 203.0.113.8', NOT_AN_ADDRESS],
    ['fe80::1%eth0', NOT_AN_ADDRESS],
    ['198.51.100.0/33', 'bad prefix length: it must be 1-32 for an IPv4 range.'],
    ['198.51.100.0/', 'bad prefix length: it must be 1-32 for an IPv4 range.'],
    ['198.51.100.0/-1', 'bad prefix length: it must be 1-32 for an IPv4 range.'],
    ['198.51.100.0/024', 'bad prefix length: it must be 1-32 for an IPv4 range.'],
    ['2001:db8::/129', 'bad prefix length: it must be 1-128 for an IPv6 range.'],
    ['198.51.100.7/24', 'host bits are set: the range is 198.51.100.0/24.'],
    ['2001:db8::1/32', 'host bits are set: the range is 2001:db8::/32.'],
    ['0.0.0.0/0', 'would allow every address: leave allowedIps empty to allow any address.'],
    ['::/0', 'would allow every address: leave allowedIps empty to allow any address.'],
    ['::ffff:0.0.0.0/96', 'would allow every address: leave allowedIps empty to allow any address.'],
    ['::ffff:0.0.0.0/95', 'mixes IPv4-mapped and other IPv6 addresses: write the IPv4 range instead.'],
  ];
  for (const [entry, problem] of refusals) {
    it(`refuses ${JSON.stringify(entry)}, naming the entry`, async () => {
      const id = await newAggregator();
      const response = await putAuthorization(id, { allowedIps: ['203.0.113.7', entry] });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, validation('allowedIps.1', `allowedIps.1 "${entry}": ${problem}`));
    });
  }

  it('refuses duplicates, also when two spellings normalise to one entry', async () => {
    const id = await newAggregator();
    const cases: Array<[string[], string]> = [
      [['203.0.113.7', '203.0.113.7'], 'allowedIps.1 "203.0.113.7": repeats allowedIps.0 (203.0.113.7).'],
      [['203.0.113.7', '203.0.113.7/32'], 'allowedIps.1 "203.0.113.7/32": repeats allowedIps.0 (203.0.113.7).'],
      [
        ['203.0.113.7', '2001:db8::1', '2001:DB8:0::1'],
        'allowedIps.2 "2001:DB8:0::1": repeats allowedIps.1 (2001:db8::1).',
      ],
      [['::ffff:203.0.113.7', '203.0.113.7'], 'allowedIps.1 "203.0.113.7": repeats allowedIps.0 (203.0.113.7).'],
    ];
    for (const [allowedIps, message] of cases) {
      const response = await putAuthorization(id, { allowedIps });
      assert.equal(response.status, 400, message);
      const field = message.slice(0, message.indexOf(' '));
      assert.deepEqual(response.body, validation(field, message));
    }
  });

  it('refuses empty strings, NUL bytes, non-strings and more than 50 entries by the schema', async () => {
    const id = await newAggregator();
    const schemaRefusal = (field: string, problem: string) => ({
      error: { code: 'validation', message: `Field "${field}" ${problem}.`, details: { field, in: 'body' } },
    });
    const refused = async (allowedIps: unknown[], expected: unknown) => {
      const response = await putAuthorization(id, { allowedIps });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, expected);
    };
    await refused(['203.0.113.7', ''], schemaRefusal('allowedIps.1', 'needs at least 1 character'));
    await refused(
      ['203.0.113.7\u0000'],
      schemaRefusal('allowedIps.0', 'must not contain NUL characters or unpaired surrogates'),
    );
    await refused([2130706433], schemaRefusal('allowedIps.0', 'must be a string'));
    const many = Array.from({ length: 51 }, (_, index) => `198.51.100.${index}`);
    await refused(many, schemaRefusal('allowedIps', 'may have at most 50 items'));
    assert.equal((await putAuthorization(id, { allowedIps: many.slice(0, 50) })).status, 200);
  });
});

describe('the aggregator API from outside the allowed source IPs', () => {
  const from = (agg: AggregatorFixture, ip?: string, method = 'GET', path = '/clients', body?: unknown) =>
    agg.call(method, path, body, { headers: ip === undefined ? {} : { 'x-forwarded-for': ip } });
  const denied = (ip: string) => ({
    error: {
      code: 'ip_not_allowed',
      message:
        `Requests from ${ip} are not allowed by your aggregator authorization; ask the platform to add this ` +
        'address to its allowed source IPs, or call from an allowed address.',
      details: { ip },
    },
  });
  const setAllowed = async (agg: AggregatorFixture, allowedIps: string[]) => {
    const origins = [new URL(wallets.production.url).origin, new URL(wallets.sandbox.url).origin];
    const response = await t.request('PUT', `/api/v1/admin/aggregators/${agg.aggregatorId}/authorization`, {
      token: agg.adminToken,
      body: authorizationBody(t, origins, { allowedIps }),
    });
    assert.equal(response.status, 200, response.text);
  };

  it('an empty list allows any address', async () => {
    const agg = await setUpAggregator(t, wallets, { adminToken: admin });
    for (const ip of [undefined, '203.0.113.7', '2001:db8::7', '::ffff:198.51.100.20']) {
      assert.equal((await from(agg, ip)).status, 200, String(ip));
    }
  });

  it('allows an address inside the list and refuses one outside it with 403 ip_not_allowed', async () => {
    const agg = await setUpAggregator(t, wallets, {
      adminToken: admin,
      authorization: { allowedIps: ['198.51.100.0/24', '203.0.113.7', '2001:db8::/32'] },
    });
    for (const ip of ['198.51.100.20', '203.0.113.7', '2001:db8:1::5']) {
      const response = await from(agg, ip);
      assert.equal(response.status, 200, ip);
      assert.deepEqual(response.body, { clients: [], nextCursor: '' });
    }
    for (const ip of ['198.51.101.20', '203.0.113.8', '2001:db9::1', '127.0.0.1']) {
      const response = await from(agg, ip);
      assert.equal(response.status, 403, ip);
      assert.deepEqual(response.body, denied(ip));
    }
    const direct = await from(agg);
    assert.equal(direct.status, 403);
    assert.deepEqual(direct.body, denied('127.0.0.1'), 'without a proxy header, the connecting address is checked');
  });

  it('matches an IPv4-mapped IPv6 client against its IPv4 range', async () => {
    const agg = await setUpAggregator(t, wallets, {
      adminToken: admin,
      authorization: { allowedIps: ['198.51.100.0/24'] },
    });
    assert.equal((await from(agg, '::ffff:198.51.100.20')).status, 200);
    const outside = await from(agg, '::ffff:203.0.113.7');
    assert.equal(outside.status, 403);
    assert.deepEqual(outside.body, denied('::ffff:203.0.113.7'));
  });

  it('refuses every operation, POSTs included, and does nothing', async () => {
    const agg = await setUpAggregator(t, wallets, {
      adminToken: admin,
      authorization: { allowedIps: ['203.0.113.7'] },
    });
    const created = await from(agg, '198.51.100.1', 'POST', '/clients', createClientBody(wallets));
    assert.equal(created.status, 403);
    assert.deepEqual(created.body, denied('198.51.100.1'));
    assert.equal((await from(agg, '198.51.100.1', 'GET', '/clients/cl_unknown')).status, 403);
    assert.equal((await t.db.selectFrom('clients').selectAll().execute()).length, 0);
    assert.equal((await from(agg, '203.0.113.7', 'POST', '/clients', createClientBody(wallets))).status, 201);
  });

  it('is checked after the key: a bad key or a disabled authorization is 401 whatever the address', async () => {
    const agg = await setUpAggregator(t, wallets, {
      adminToken: admin,
      authorization: { allowedIps: ['203.0.113.7'] },
    });
    const wrongKey = await agg.call('GET', '/clients', undefined, {
      key: `bm_agg_${'x'.repeat(43)}`,
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    assert.deepEqual([wrongKey.status, wrongKey.body.error.details], [401, { reason: 'invalid_key' }]);
    await t.request('POST', `/api/v1/admin/aggregators/${agg.aggregatorId}/disable`, { token: admin, body: {} });
    const disabled = await from(agg, '198.51.100.1');
    assert.deepEqual([disabled.status, disabled.body.error.details], [401, { reason: 'authorization_disabled' }]);
    const denials = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'aggregator.authenticate')
      .execute();
    assert.equal(denials.length, 0);
  });

  it('follows the policy at once: a change applies to the next request', async () => {
    const agg = await setUpAggregator(t, wallets, {
      adminToken: admin,
      authorization: { allowedIps: ['203.0.113.7'] },
    });
    assert.equal((await from(agg, '198.51.100.1')).status, 403);
    await setAllowed(agg, ['203.0.113.7', '198.51.100.0/24']);
    assert.equal((await from(agg, '198.51.100.1')).status, 200);
    await setAllowed(agg, []);
    assert.equal((await from(agg, '192.0.2.1')).status, 200);
  });

  it('audits each refusal as denied, with the aggregator, the key, the address and the policy version', async () => {
    const agg = await setUpAggregator(t, wallets, {
      adminToken: admin,
      authorization: { allowedIps: ['203.0.113.7'] },
    });
    await from(agg, '198.51.100.1');
    await from(agg, '2001:db8::9', 'POST', '/clients', createClientBody(wallets));
    await from(agg, '203.0.113.7');
    const rows = await t.db
      .selectFrom('audit_log')
      .select(['actor_type', 'actor_id', 'action', 'target_type', 'target_id', 'outcome', 'ip', 'details'])
      .where('action', '=', 'aggregator.authenticate')
      .orderBy('id')
      .execute();
    const row = (ip: string) => ({
      actor_type: 'aggregator',
      actor_id: agg.aggregatorId,
      action: 'aggregator.authenticate',
      target_type: 'aggregator',
      target_id: agg.aggregatorId,
      outcome: 'denied',
      ip,
      details: { reason: 'ip_not_allowed', keyId: agg.keyId, version: 1 },
    });
    assert.deepEqual(rows, [row('198.51.100.1'), row('2001:db8::9')]);
  });
});

describe('refusals for the address spend its failed-attempt budget', () => {
  it('past the budget the address waits (429), so a key used from elsewhere cannot flood the audit log', async () => {
    const limited = await startTestApp(
      { TRUST_PROXY: '127.0.0.1' },
      { authLimits: { failedAttemptsPerMinute: 2, aggregatorRequestsPerMinute: 120 } },
    );
    try {
      const agg = await setUpAggregator(limited, wallets, { authorization: { allowedIps: ['203.0.113.7'] } });
      const call = (ip: string) => agg.call('GET', '/clients', undefined, { headers: { 'x-forwarded-for': ip } });
      assert.equal((await call('198.51.100.1')).status, 403);
      assert.equal((await call('198.51.100.1')).status, 403);
      const waiting = await call('198.51.100.1');
      assert.deepEqual([waiting.status, waiting.body.error.code], [429, 'rate_limited']);
      assert.equal((await call('203.0.113.7')).status, 200, 'the allowed address has its own budget');
      const rows = await limited.db
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'aggregator.authenticate')
        .execute();
      assert.equal(rows.length, 2);
    } finally {
      await limited.close();
    }
  });
});

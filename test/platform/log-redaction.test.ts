import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type pino from 'pino';
import { SportsbookPageQuery } from '../../src/embed/schemas.ts';
import { TOKEN_PREFIX } from '../../src/platform/crypto.ts';
import { createLogger, LOGGED_QUERY_PARAMS, loggedUrl } from '../../src/platform/http/logging.ts';
import { setUpAggregator } from '../helpers/aggregator.ts';
import { LogCapture, loginAsStaff, STAFF_PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant, exchange, openSession } from '../helpers/tenant.ts';
import type { TestWallet } from '../helpers/wallet.ts';

function logged(write: (log: pino.Logger) => void): Array<Record<string, unknown>> {
  const capture = new LogCapture();
  write(createLogger('info', capture));
  return capture.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('log lines never carry a credential', () => {
  it('a property named like one is redacted at any depth, in objects and arrays, and nothing else changes', () => {
    const [line] = logged((log) =>
      log.info(
        {
          token: 'tok-0',
          tenant: { id: 'tn_1', walletSecret: 'ws-1' },
          deep: { a: { b: { password: 'pw-3', kept: 3 } } },
          calls: [{ apiKey: 'key-1', endpoint: 'debit' }],
          headers: { 'x-api-key': 'xk', cookie: 'c=1', accept: 'json' },
        },
        'something happened',
      ),
    );
    assert.deepEqual(
      { ...line, time: 0, pid: 0, hostname: '' },
      {
        level: 30,
        time: 0,
        pid: 0,
        hostname: '',
        token: '[REDACTED]',
        tenant: { id: 'tn_1', walletSecret: '[REDACTED]' },
        deep: { a: { b: { password: '[REDACTED]', kept: 3 } } },
        calls: [{ apiKey: '[REDACTED]', endpoint: 'debit' }],
        headers: { 'x-api-key': '[REDACTED]', cookie: '[REDACTED]', accept: 'json' },
        msg: 'something happened',
      },
    );
  });

  it("an error's own properties are redacted, its message and type kept", () => {
    const error = Object.assign(new Error('the wallet refused'), { secret: 's3cr3t', status: 401 });
    const [line] = logged((log) => log.error({ err: error }, 'wallet call failed'));
    const err = line!.err as Record<string, unknown>;
    assert.equal(err.secret, '[REDACTED]');
    assert.equal(err.status, 401);
    assert.equal(err.message, 'the wallet refused');
    assert.equal(err.type, 'Error');
    assert.ok(!JSON.stringify(line).includes('s3cr3t'));
  });

  it('a line naming no credential is written as pino wrote it (a "token": inside a string is text)', () => {
    const capture = new LogCapture();
    createLogger('info', capture).info({ betId: 'bt_1', note: 'the "token": is text' }, 'bet placed');
    assert.match(
      capture.lines[0]!,
      /^\{"level":30,"time":\d+,"pid":\d+,"hostname":"[^"]*","betId":"bt_1","note":"the \\"token\\": is text","msg":"bet placed"\}$/,
    );
  });
});

describe("an API request's log lines", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('never carry its credentials, in headers or in the address', async () => {
    await t.request('GET', '/api/v1/wallet/balance?token=launch-in-url-1234', {
      headers: { authorization: 'Bearer bearer-secret-5678', 'x-api-key': 'api-key-secret-9012' },
    });
    assert.ok(t.logs.lines.length > 0);
    for (const secret of ['launch-in-url-1234', 'bearer-secret-5678', 'api-key-secret-9012']) {
      assert.ok(!t.logs.text.includes(secret), `logged: ${secret}`);
    }
  });
});

describe("a request's URL as its log line shows it", () => {
  it('keeps the path and the values of the allow-listed parameters, and replaces every other value', () => {
    const cases: Array<[sent: string, logged: string]> = [
      ['/api/v1/admin/me', '/api/v1/admin/me'],
      ['/api/v1/admin/me?access_token=bm_staff_abc', '/api/v1/admin/me?access_token=[REDACTED]'],
      [
        '/api/v1/admin/obligations?state=held&player=pl_1&tenantId=tn_1&order=oldest&limit=5&cursor=MjAyNg',
        '/api/v1/admin/obligations?state=held&player=pl_1&tenantId=tn_1&order=oldest&limit=5&cursor=MjAyNg',
      ],
      [
        '/api/v1/admin/trading/events?status=live&status=scheduled',
        '/api/v1/admin/trading/events?status=live&status=scheduled',
      ],
      ['/api/v1/bets/bt_1/cashout?stake=500', '/api/v1/bets/bt_1/cashout?stake=500'],
      // any name off the list, whatever it is: the value goes
      [
        '/x?token=a&key=b&apiKey=c&x-api-key=d&session=e&access_token=f&Player=g&password=h',
        '/x?token=[REDACTED]&key=[REDACTED]&apiKey=[REDACTED]&x-api-key=[REDACTED]&session=[REDACTED]&' +
          'access_token=[REDACTED]&Player=[REDACTED]&password=[REDACTED]',
      ],
      // free text a person types, and the iframe page's launch and deprecated token
      ['/api/v1/admin/staff?q=someone%40example.com&role=trader', '/api/v1/admin/staff?q=[REDACTED]&role=trader'],
      [
        '/?tenant=tn_1&launch=bm_launch_x&token=bm_sess_y&locale=pt-BR&theme.primary=%23ff0000',
        '/?tenant=tn_1&launch=[REDACTED]&token=[REDACTED]&locale=pt-BR&theme.primary=%23ff0000',
      ],
      // an allow-listed name with a credential as its value, plain, percent-encoded, twice encoded, any case
      ['/x?player=bm_sess_abc&bet=bt_1', '/x?player=[REDACTED]&bet=bt_1'],
      ['/x?player=bm%5Fsess%5Fabc', '/x?player=[REDACTED]'],
      ['/x?player=bm%255fsess%255Fabc', '/x?player=[REDACTED]'],
      ['/x?player=BM_STAFF_abc', '/x?player=[REDACTED]'],
      ['/x?player=%E0%A4%A', '/x?player=[REDACTED]'],
      // an allow-listed name sent percent-encoded is that name; a value may be empty
      ['/x?pl%61yer=pl_1&limit=', '/x?pl%61yer=pl_1&limit='],
      // a credential sent as a name, or a name that does not read as one, goes too
      ['/x?bm_staff_abc', '/x?[REDACTED]'],
      ['/x?bm_staff_abc=1&flag', '/x?[REDACTED]=[REDACTED]&flag'],
      [`/x?${'a'.repeat(43)}&limit=1`, '/x?[REDACTED]&limit=1'],
      ['/x?a%20b=1', '/x?[REDACTED]=[REDACTED]'],
      ['/x?a=1&&b', '/x?a=[REDACTED]&&b'],
      // a path segment holding a credential, plain or percent-encoded
      ['/api/v1/admin/bm_staff_abc/x?limit=1', '/api/v1/admin/[REDACTED]/x?limit=1'],
      ['/api/v1/bm%5Fint%5Fabc', '/api/v1/[REDACTED]'],
      ['/api/v1/caf%C3%A9?', '/api/v1/caf%C3%A9?'],
    ];
    for (const [sent, logged] of cases) assert.equal(loggedUrl(sent), logged, sent);
  });

  it("every credential kind's prefix is one the rule knows", () => {
    for (const prefix of [...Object.values(TOKEN_PREFIX), 'bm_enrol_']) {
      assert.equal(loggedUrl(`/x?player=${prefix}abc`), '/x?player=[REDACTED]', prefix);
    }
  });
});

/** A credential's random part: the secret itself, without the prefix every token of its kind shares. */
const randomPart = (secret: string) => secret.replace(/^bm_[a-z]+_/, '');

describe('credentials sent in a query string', () => {
  let t: TestApp;
  let admin: string;
  let aggregatorKey: string;
  let sessionToken: string;
  let credentials: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    admin = (await loginAsStaff(t, 'platform_admin')).token;
    const tenant = await createTenant(t, admin);
    // The authorization only names the wallet origins; nothing here calls them.
    const wallets = {
      production: { url: 'https://wallet.acme.example/api' },
      sandbox: { url: 'https://sandbox.acme.example/api' },
    } as unknown as { production: TestWallet; sandbox: TestWallet };
    aggregatorKey = (await setUpAggregator(t, wallets, { adminToken: admin })).key;
    const first = await openSession(t, tenant, { externalPlayerId: 'log-redaction' });
    const launched = await exchange(t, tenant.tenantId, first.body.launchToken);
    assert.equal(launched.status, 200, launched.text);
    sessionToken = launched.body.token;
    // A launch token not yet used: the live one a launch URL carries.
    const second = await openSession(t, tenant, { externalPlayerId: 'log-redaction' });
    assert.equal(second.status, 200, second.text);
    const email = `enrolling.${Date.now()}@bookmaker.test`;
    await t.app.services.staff.createForEnrolment({ email, password: STAFF_PASSWORD, role: 'trader' });
    const enrolling = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email, password: STAFF_PASSWORD },
    });
    assert.equal(enrolling.status, 200, enrolling.text);
    credentials = {
      staff: admin,
      integrationKey: tenant.apiKey,
      aggregatorKey,
      session: sessionToken,
      launch: second.body.launchToken,
      walletSecret: tenant.walletSecret,
      enrolment: enrolling.body.enrolment.enrolmentToken,
    };
    for (const [kind, secret] of Object.entries(credentials))
      assert.match(secret, /^bm_[a-z]+_[A-Za-z0-9_-]{40,}$/, kind);
  });
  after(() => t.close());

  /** The calls each credential is sent with: several routes, several names, allow-listed ones among them. */
  const calls = (secret: string) => {
    const encoded = encodeURIComponent(secret).replaceAll('_', '%5F');
    return [
      // refused: no credential where the route reads one
      { path: `/api/v1/admin/me?access_token=${secret}`, status: 401 },
      { path: `/api/v1/admin/me?token=${secret}&key=${secret}&apiKey=${secret}&x-api-key=${secret}`, status: 401 },
      // a route that does not exist, with the secret in its path too
      { path: `/api/v1/nowhere?session=${secret}&player=${secret}&tenantId=${secret}`, status: 404 },
      { path: `/api/v1/admin/${secret}?cursor=${secret}`, status: 404 },
      // served: allow-listed names, plain and percent-encoded
      { path: `/api/v1/admin/audit?actorId=${secret}&targetId=${encoded}`, token: admin, status: 200 },
      { path: `/api/v1/admin/obligations?player=${encoded}&bet=${secret}`, token: admin, status: 200 },
      // accepts any query: as a name, bare, under unknown and allow-listed names
      { path: `/healthz?${secret}&${secret}=1&access_token=${secret}&player=${secret}`, status: 200 },
      // the iframe page's own credential parameters
      { path: `/?launch=${secret}&token=${secret}&locale=pt-BR`, status: 200 },
      // refused by validation: an aggregator's and a player's route
      { path: `/api/v1/aggregator/clients?cursor=${secret}&key=${secret}`, token: aggregatorKey, status: 400 },
      { path: `/api/v1/bets?cursor=${secret}&player=${secret}`, token: sessionToken, status: 400 },
    ];
  };

  it('never reach a log line, whatever they are named and wherever they are sent', async () => {
    let sent = 0;
    for (const [kind, secret] of Object.entries(credentials)) {
      for (const call of calls(secret)) {
        const requestId = `log-redaction-${(sent += 1)}`;
        const response = await t.request('GET', call.path, {
          ...(call.token ? { token: call.token } : {}),
          headers: { 'x-request-id': requestId },
        });
        assert.equal(response.status, call.status, `${kind} ${call.path.replace(secret, '…')}: ${response.text}`);
        const incoming = t.logs.lines.filter((line) => line.includes(`"reqId":"${requestId}"`));
        assert.ok(
          incoming.some((line) => line.includes('"msg":"incoming request"')),
          `${kind}: no line logged`,
        );
      }
    }
    for (const [kind, secret] of Object.entries(credentials)) {
      assert.ok(!t.logs.text.includes(secret), `the ${kind} credential was logged`);
      assert.ok(!t.logs.text.includes(randomPart(secret)), `the ${kind} credential's random part was logged`);
    }
  });

  it('the allow-listed values still show, for the operators reading the log', async () => {
    const requestId = 'log-redaction-shown';
    const response = await t.request(
      'GET',
      `/api/v1/admin/audit?actorId=st_shown-1&targetType=tenant&order=oldest&limit=5&access_token=${admin}`,
      { token: admin, headers: { 'x-request-id': requestId } },
    );
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(response.body.error, {
      code: 'validation',
      message: 'Unknown field "access_token" (querystring).',
      details: { field: 'access_token', in: 'querystring' },
    });
    const incoming = t.logs.lines
      .map((line) => JSON.parse(line) as { reqId?: string; msg?: string; req?: { url: string } })
      .find((line) => line.reqId === requestId && line.msg === 'incoming request');
    assert.equal(
      incoming?.req?.url,
      '/api/v1/admin/audit?actorId=st_shown-1&targetType=tenant&order=oldest&limit=5&access_token=[REDACTED]',
    );
  });

  it("the allow-list is the routes' query parameters, less those that carry a credential or free text", () => {
    const document = t.app.http.swagger() as unknown as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
    };
    const declared = new Set([
      ...Object.values(document.paths)
        .flatMap((item) => Object.values(item))
        .flatMap((operation) => operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name),
      // the iframe page's query (a page, not in the documents)
      ...Object.keys(SportsbookPageQuery.properties),
    ]);
    // launch and token: the iframe page's launch tokens; q: a search, free text (part of an e-mail, a name)
    const withheld = ['launch', 'q', 'token'];
    assert.deepEqual(
      [...declared].filter((name) => !LOGGED_QUERY_PARAMS.has(name)).sort(),
      withheld,
      'a query parameter a route declares is either logged (LOGGED_QUERY_PARAMS in platform/http/logging.ts) or ' +
        'withheld here, with the reason',
    );
    assert.deepEqual(
      [...LOGGED_QUERY_PARAMS].filter((name) => !declared.has(name)),
      [],
      'LOGGED_QUERY_PARAMS names only parameters some route declares',
    );
  });
});

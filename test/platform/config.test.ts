import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';

const KEY = Buffer.alloc(32, 1).toString('base64');
const tempDir = () => mkdtempSync(join(tmpdir(), 'bookmaker-config-'));

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env });
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a configuration error');
}

describe('configuration', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.appEnv, 'development');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.sportsbookUrl, undefined);
    assert.equal(config.secretsKeys.length, 1);
  });

  it("defaults DATA_DIR to the project's data folder, wherever the command runs from", () => {
    const config = loadConfig({ SECRETS_KEY: KEY });
    assert.equal(config.dataDir, join(import.meta.dirname, '..', '..', 'data'));
  });

  for (const port of ['abc', '-1', '65536', '3000.5']) {
    it(`refuses PORT=${port} naming the variable`, () => {
      const error = configError({ PORT: port });
      assert.equal(error.variable, 'PORT');
      assert.match(error.message, /^PORT: /);
    });
  }

  it('accepts PORT at its bounds 0 and 65535', () => {
    assert.equal(loadConfig({ DATA_DIR: tempDir(), PORT: '0' }).port, 0);
    assert.equal(loadConfig({ DATA_DIR: tempDir(), PORT: '65535' }).port, 65535);
  });

  it('refuses an unknown APP_ENV', () => {
    assert.equal(configError({ APP_ENV: 'prod' }).variable, 'APP_ENV');
  });

  it('refuses a DATABASE_URL that is not postgres', () => {
    assert.equal(configError({ DATABASE_URL: 'mysql://localhost/db' }).variable, 'DATABASE_URL');
    assert.equal(configError({ DATABASE_URL: 'not a url' }).variable, 'DATABASE_URL');
  });

  it('keeps only the origin of SPORTSBOOK_URL and refuses non-http URLs', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), SPORTSBOOK_URL: 'https://book.example.com/some/path' });
    assert.equal(config.sportsbookUrl, 'https://book.example.com');
    assert.equal(configError({ SPORTSBOOK_URL: 'ftp://book.example.com' }).variable, 'SPORTSBOOK_URL');
  });

  it('requires SECRETS_KEY outside development', () => {
    for (const appEnv of ['staging', 'production']) {
      const error = configError({ APP_ENV: appEnv });
      assert.equal(error.variable, 'SECRETS_KEY');
      assert.match(error.message, /required/);
    }
  });

  it('refuses a SECRETS_KEY that is not 32 bytes of base64', () => {
    assert.equal(configError({ SECRETS_KEY: Buffer.alloc(16).toString('base64') }).variable, 'SECRETS_KEY');
    assert.equal(configError({ SECRETS_KEY: 'not base64 at all!' }).variable, 'SECRETS_KEY');
    assert.equal(configError({ SECRETS_KEY: KEY, SECRETS_KEY_PREVIOUS: 'short' }).variable, 'SECRETS_KEY_PREVIOUS');
  });

  it('generates the development key once into DATA_DIR, readable only by its owner, and reuses it', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = join(dataDir, 'secrets.key');
    assert.ok(existsSync(file));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const second = loadConfig({ DATA_DIR: dataDir });
    assert.deepEqual(second.secretsKeys[0], first.secretsKeys[0]);
    assert.equal(readFileSync(file, 'utf8'), first.secretsKeys[0]!.toString('base64'));
  });

  it('puts the current key first and previous keys after it', () => {
    const previous = Buffer.alloc(32, 2).toString('base64');
    const config = loadConfig({ DATA_DIR: tempDir(), SECRETS_KEY: KEY, SECRETS_KEY_PREVIOUS: previous });
    assert.deepEqual(
      config.secretsKeys.map((key) => key.toString('base64')),
      [KEY, previous],
    );
  });

  it('reads INTEGRATION_SANDBOXES as a boolean, enabled by default', () => {
    assert.equal(loadConfig({ DATA_DIR: tempDir() }).integrationSandboxes, true);
    assert.equal(loadConfig({ DATA_DIR: tempDir(), INTEGRATION_SANDBOXES: 'false' }).integrationSandboxes, false);
    assert.equal(configError({ INTEGRATION_SANDBOXES: 'maybe' }).variable, 'INTEGRATION_SANDBOXES');
  });

  it('refuses an unknown LOG_LEVEL', () => {
    assert.equal(configError({ LOG_LEVEL: 'loud' }).variable, 'LOG_LEVEL');
  });

  it('reads TRUST_PROXY as no proxy, a number of hops, or proxy addresses and networks', () => {
    const trust = (value?: string) => loadConfig({ DATA_DIR: tempDir(), ...(value ? { TRUST_PROXY: value } : {}) });
    assert.equal(trust().trustProxy, false);
    assert.equal(trust('2').trustProxy, 2);
    assert.deepEqual(trust('10.0.0.0/8, 192.0.2.1, ::1').trustProxy, ['10.0.0.0/8', '192.0.2.1', '::1']);
    const refused = configError({ TRUST_PROXY: 'load-balancer' });
    assert.equal(refused.variable, 'TRUST_PROXY');
    assert.match(refused.message, /number of proxy hops .* got "load-balancer"/);
  });
});

describe('the metrics configuration', () => {
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: tempDir(), ...env });

  it('defaults to a listener on 127.0.0.1:9464 with per-tenant labels', () => {
    const config = load({});
    assert.deepEqual([config.metricsPort, config.metricsHost, config.metricsTenantLabels], [9464, '127.0.0.1', true]);
  });

  it('takes METRICS_PORT from 0 (any free port) to 65535, or off', () => {
    assert.deepEqual(
      ['0', '65535', ' 9100 ', 'off', 'OFF'].map((port) => load({ METRICS_PORT: port }).metricsPort),
      [0, 65535, 9100, 'off', 'off'],
    );
  });

  for (const port of ['abc', '-1', '65536', '9464.5', 'none']) {
    it(`refuses METRICS_PORT=${port}, echoing it and the accepted values`, () => {
      const error = configError({ METRICS_PORT: port });
      assert.equal(error.variable, 'METRICS_PORT');
      assert.equal(error.message, `METRICS_PORT: must be an integer from 0 to 65535, or off, got "${port}"`);
    });
  }

  it('takes METRICS_HOST as an IPv4 or IPv6 address, or localhost', () => {
    assert.deepEqual(
      ['0.0.0.0', '10.1.2.3', '::', '::1', 'localhost'].map((host) => load({ METRICS_HOST: host }).metricsHost),
      ['0.0.0.0', '10.1.2.3', '::', '::1', 'localhost'],
    );
  });

  for (const host of ['metrics.internal', '999.1.1.1', '127.1', 'http://127.0.0.1']) {
    it(`refuses METRICS_HOST=${host}, echoing it and the accepted values`, () => {
      const error = configError({ METRICS_HOST: host });
      assert.equal(error.variable, 'METRICS_HOST');
      assert.equal(
        error.message,
        'METRICS_HOST: must be an address to listen on: 127.0.0.1 (this machine only), 0.0.0.0 or :: (every ' +
          `interface), another IPv4 or IPv6 address of this machine, or localhost, got "${host}"`,
      );
    });
  }

  it('reads METRICS_TENANT_LABELS as a boolean, echoing a value that is not', () => {
    assert.equal(load({ METRICS_TENANT_LABELS: 'false' }).metricsTenantLabels, false);
    assert.equal(load({ METRICS_TENANT_LABELS: '0' }).metricsTenantLabels, false);
    const error = configError({ METRICS_TENANT_LABELS: 'per-tenant' });
    assert.equal(error.variable, 'METRICS_TENANT_LABELS');
    assert.match(error.message, /^METRICS_TENANT_LABELS: must be true or false.*, got "per-tenant"$/);
  });
});

describe('every configuration error echoes the bad value (secrets masked) and the accepted ones', () => {
  const message = (env: Record<string, string>) => configError(env).message;

  it('APP_ENV, PORT, LOG_LEVEL, LOG_FORMAT, INTEGRATION_SANDBOXES, SPORTSBOOK_URL, TRUST_PROXY', () => {
    assert.equal(message({ APP_ENV: 'prod' }), 'APP_ENV: must be one of development, staging, production, got "prod"');
    assert.equal(message({ PORT: '70000' }), 'PORT: must be an integer from 0 to 65535, got "70000"');
    assert.equal(
      message({ LOG_LEVEL: 'verbose' }),
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    );
    assert.equal(
      message({ LOG_FORMAT: 'text' }),
      'LOG_FORMAT: must be one of json, pretty (unset: pretty on a terminal, json otherwise), got "text"',
    );
    assert.equal(
      message({ INTEGRATION_SANDBOXES: 'maybe' }),
      'INTEGRATION_SANDBOXES: must be true or false (or 1 or 0), got "maybe"',
    );
    assert.equal(
      message({ SPORTSBOOK_URL: 'ftp://book.example.com' }),
      'SPORTSBOOK_URL: must be an absolute http(s) URL, got "ftp://book.example.com"',
    );
    assert.equal(
      message({ TRUST_PROXY: '10.0.0.0/8, proxy.internal' }),
      'TRUST_PROXY: must be a number of proxy hops (1-99) or comma-separated proxy addresses or networks, got ' +
        '"proxy.internal"',
    );
  });

  it('DATABASE_URL, with its password masked, parsed or not', () => {
    const accepted =
      'DATABASE_URL: must be a postgres:// or postgresql:// URL (postgres://user:password@host:5432/database)';
    assert.equal(
      message({ DATABASE_URL: 'mysql://app:s3cret@db.internal:3306/book' }),
      `${accepted}, got "mysql://app:***@db.internal:3306/book"`,
    );
    assert.equal(
      message({ DATABASE_URL: 'postgres//app:p@ss/w0rd@db.internal/book' }),
      `${accepted}, got "postgres//app:***@db.internal/book"`,
      'without its scheme, the password is still found',
    );
    assert.equal(
      message({ DATABASE_URL: 'http://app:p@ss/w0rd@db.internal/book?sslmode=require&password=hunter2' }),
      `${accepted}, got "http://app:***@db.internal/book?sslmode=require&password=***"`,
    );
    assert.equal(message({ DATABASE_URL: 'not a url' }), `${accepted}, got "not a url"`);
  });

  it('SECRETS_KEY and SECRETS_KEY_PREVIOUS: their length, never a character of them', () => {
    const rule = 'must be 32 bytes encoded as base64 (44 characters; openssl rand -base64 32 makes one), got';
    const short = Buffer.alloc(16, 3).toString('base64');
    assert.equal(message({ SECRETS_KEY: short }), `SECRETS_KEY: ${rule} 24 characters of base64 (16 bytes)`);
    assert.equal(message({ SECRETS_KEY: 'hunter2 is my key!' }), `SECRETS_KEY: ${rule} 18 characters, not base64`);
    assert.equal(
      message({ SECRETS_KEY: KEY, SECRETS_KEY_PREVIOUS: 'oops' }),
      `SECRETS_KEY_PREVIOUS: ${rule} 4 characters of base64 (3 bytes)`,
    );
    assert.equal(
      message({ SECRETS_KEY: KEY, SECRETS_KEY_PREVIOUS: `${KEY},${short}` }),
      `SECRETS_KEY_PREVIOUS: key 2 of 2 ${rule} 24 characters of base64 (16 bytes)`,
    );
    assert.equal(
      message({ APP_ENV: 'production' }),
      'SECRETS_KEY: is required when APP_ENV=production (32 bytes encoded as base64; openssl rand -base64 32 makes ' +
        'one)',
    );
  });

  it("the development key file's SECRETS_KEY error names the file, and not its content", () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'secrets.key'), 'c2hvcnQ=', { mode: 0o600 });
    assert.equal(
      configError({ DATA_DIR: dataDir }).message,
      `SECRETS_KEY: ${dataDir}/secrets.key, the development key, must be 32 bytes encoded as base64 (44 characters; ` +
        'openssl rand -base64 32 makes one), got 8 characters of base64 (5 bytes)',
    );
  });
});

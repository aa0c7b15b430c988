import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
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

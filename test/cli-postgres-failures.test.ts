import { describe, it } from 'node:test';
import { assertFails, bookmaker, KEY, tempDir } from './helpers/cli-run.ts';

/**
 * A CLI failure that needs a PostgreSQL server to happen: one that refuses the connection. Every other CLI failure is
 * test/cli-failures.test.ts's, which names its own database and so runs once.
 */
const embedded = !process.env.DATABASE_URL;

describe('CLI failures against a PostgreSQL server', () => {
  it(
    'PostgreSQL that refuses the connection',
    { skip: embedded && 'needs a PostgreSQL server (set DATABASE_URL)' },
    async () => {
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = '/bookmaker_no_such_database';
      const where = `PostgreSQL at ${url.host}/bookmaker_no_such_database`;
      const env = { DATA_DIR: tempDir(), SECRETS_KEY: KEY, DATABASE_URL: url.toString() };
      assertFails(
        await bookmaker(env, ['serve']),
        `bookmaker: ${where} refused the connection: database "bookmaker_no_such_database" does not exist: correct ` +
          'the user, password or database name in DATABASE_URL\n',
      );
    },
  );
});

import { createHash } from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/** How many statements a connection keeps prepared, and which. */
export interface PreparedStatementLimits {
  /**
   * The service runs a few dozen distinct statements; the bound keeps an unexpected stream of distinct texts from
   * growing the server's memory without end (later new ones run unprepared).
   */
  perConnection: number;
  /** More parameters than this is a batch whose size varies: each size would be a statement of its own. */
  parameters: number;
}

const DEFAULT_LIMITS: PreparedStatementLimits = { perConnection: 250, parameters: 100 };

/**
 * The pool for Kysely, with every parameterised statement prepared on its connection the first time it runs there
 * and executed by name afterwards. PostgreSQL then parses and rewrites it once per connection, and after five runs
 * may keep a generic plan instead of planning every call: measured, a third of the database's work per placement
 * (docs/benchmarks.md). The name is a hash of the text, so one name is always one statement.
 */
export function preparingPool(pool: pg.Pool, limits: PreparedStatementLimits = DEFAULT_LIMITS): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let preparing = wrapped.get(client);
      if (!preparing) {
        preparing = preparingClient(client, limits);
        wrapped.set(client, preparing);
      }
      return preparing;
    },
    end: () => pool.end(),
  };
}

function preparingClient(client: pg.PoolClient, limits: PreparedStatementLimits): PostgresPoolClient {
  const prepared = new Set<string>();
  const nameFor = (text: string, parameters: readonly unknown[]): string | undefined => {
    if (parameters.length === 0 || parameters.length > limits.parameters) return undefined;
    const name = `k${createHash('sha1').update(text).digest('base64url')}`;
    if (prepared.has(name)) return name;
    if (prepared.size >= limits.perConnection) return undefined;
    prepared.add(name);
    return name;
  };
  function query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    statement: string | PostgresCursor<R>,
    parameters: readonly unknown[] = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof statement !== 'string') return client.query(statement as unknown as pg.Submittable) as never;
    const name = nameFor(statement, parameters);
    const values = [...parameters];
    return client.query(name ? { name, text: statement, values } : { text: statement, values }) as never;
  }
  return { query, release: () => client.release() };
}

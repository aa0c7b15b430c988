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

/**
 * What a prepared statement answers once the connection's copy can no longer be trusted: 0A000 ("cached plan must
 * not change result type": a migration changed the columns a `select *` returns) or 26000 (pg thinks it prepared a
 * statement the server does not have). A named statement that fails in the client before reaching the server is
 * not trusted either.
 */
export const STALE_PREPARED_STATEMENT = new Set(['0A000', '26000']);

/**
 * Names by text, so a statement run again is named without hashing it again: a statement compiled once (compiled.ts)
 * is the same string every time, whose hash the engine keeps. Bounded like the statements a connection keeps.
 */
const names = new Map<string, string>();
const MAX_NAMES = 1_000;

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `k${createHash('sha1').update(text).digest('base64url')}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(text, name);
  }
  return name;
}

function preparingClient(client: pg.PoolClient, limits: PreparedStatementLimits): PostgresPoolClient {
  const prepared = new Set<string>();
  let inTransaction = false;
  /** Set once a prepared statement went stale: the connection is closed when released, never reused. */
  let stale = false;
  const nameFor = (text: string, parameters: readonly unknown[]): string | undefined => {
    if (parameters.length === 0 || parameters.length > limits.parameters) return undefined;
    const name = statementName(text);
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
    if (statement === 'begin') inTransaction = true;
    else if (statement === 'commit' || statement === 'rollback') inTransaction = false;
    return run<R>(statement, [...parameters]) as never;
  }

  /**
   * A stale statement did nothing (the plan is checked before it runs): outside a transaction it runs again
   * unprepared; inside one, the transaction is aborted and the error stands (inTransaction runs it again, on
   * another connection).
   */
  async function run<R>(text: string, values: unknown[]): Promise<pg.QueryResult> {
    const name = stale ? undefined : nameFor(text, values);
    if (!name) return client.query<R & pg.QueryResultRow>({ text, values });
    try {
      return await client.query<R & pg.QueryResultRow>({ name, text, values });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== undefined && !(typeof code === 'string' && STALE_PREPARED_STATEMENT.has(code))) throw error;
      stale = true;
      if (inTransaction) throw error;
      return client.query<R & pg.QueryResultRow>({ text, values });
    }
  }

  return { query, release: () => client.release(stale) };
}

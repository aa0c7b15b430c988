import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely over embedded PGlite. PGlite is a single connection, so the driver hands it out to one
 * holder at a time: a transaction owns it from BEGIN to COMMIT and nothing interleaves with it.
 * That is why no network call may ever run inside a transaction: it would stall every request.
 */
export class PGliteDialect implements Dialect {
  readonly #driver: PGliteDriver;
  constructor(pglite: PGlite) {
    this.#driver = new PGliteDriver(pglite);
  }
  /** The one connection: whether it is in use, and how many wait for it (the pool gauges of the metrics). */
  connectionUse(): { busy: boolean; waiting: number } {
    return this.#driver.connectionUse();
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return this.#driver;
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/**
 * Longest wait for the connection. Transactions here last milliseconds; a wait this long means a query on the
 * root database inside an open transaction, which would otherwise hang forever. Fail loudly instead.
 */
const CONNECTION_WAIT_LIMIT_MS = 15_000;

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  #busy = false;
  readonly #waiters: Array<() => void> = [];

  constructor(pglite: PGlite) {
    this.#connection = new PGliteConnection(pglite);
    this.#connection.release = () => this.#handOver();
  }

  async init(): Promise<void> {}

  connectionUse(): { busy: boolean; waiting: number } {
    return { busy: this.#busy, waiting: this.#waiters.length };
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#busy) await this.#wait();
    this.#busy = true;
    return this.#connection;
  }

  #wait(): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        reject(
          new Error(
            `PGlite connection not free after ${CONNECTION_WAIT_LIMIT_MS} ms: is the root database used inside a transaction?`,
          ),
        );
      }, CONNECTION_WAIT_LIMIT_MS);
      this.#waiters.push(waiter);
    });
  }

  /** The next waiter gets the connection directly; it stays busy until nobody waits. */
  #handOver(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#busy = false;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    this.#connection.release();
  }

  async destroy(): Promise<void> {}
}

class PGliteConnection implements DatabaseConnection {
  readonly #pglite: PGlite;
  release: () => void = () => {};

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.#pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters], {
      rowMode: 'object',
    });
    const affected = result.affectedRows === undefined ? undefined : BigInt(result.affectedRows);
    return { rows: result.rows, numAffectedRows: affected };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite driver does not support streaming');
  }
}

import { sql, type Kysely, type OperationNodeSource, type RawBuilder } from 'kysely';
import { runCompiled, type SlotOf } from './compiled.ts';
import { runAgainIfAborted, type Queryable } from './database.ts';
import type { Database } from './schema.ts';

/**
 * One write of a statement that several domains write together. Each store builds the parts of its own tables;
 * a use case puts them in one statement, one round trip to the database instead of one per write. The statement
 * is compiled once per shape (compiled.ts): a part's query is built from slots, and its values are bound per run.
 */
export interface StatementPart {
  /** The part's name in the statement: later parts read what it returned from there (see `after`). */
  name: string;
  /**
   * Everything the part's text depends on besides its values (its table, columns, gate): parts of one shape build
   * one text.
   */
  shape: string;
  /** An insert, update or delete with a RETURNING clause, with `slot(key)` where each of `values` goes. */
  build(q: Kysely<Database>, slot: SlotOf): OperationNodeSource;
  /** This run's values, by slot. */
  values: Record<string, unknown>;
  /**
   * How many rows it must return. If any part returns another count, the statement fails and writes nothing
   * (IncompleteStatementError): several parts stay all or nothing without a transaction around them.
   */
  rows?: number;
}

/** A part returned another number of rows than it had to: the statement wrote nothing. */
export class IncompleteStatementError extends Error {
  readonly part: string;

  constructor(part: string) {
    super(`the statement wrote nothing: its part "${part}" did not return the rows it had to`);
    this.name = 'IncompleteStatementError';
    this.part = part;
  }
}

/** Raised by the statement's own check (migration 0010's bookmaker_check). */
const INCOMPLETE_STATEMENT = 'BM001';

/**
 * Runs the parts as one statement, each a data-modifying CTE, and answers the rows each part returned (as JSON
 * values). Every part sees the database as it was before the statement (PostgreSQL runs them on one snapshot);
 * a part learns what an earlier one wrote only through its RETURNING rows, for example `after(name)`. Run on its
 * own (not inside a transaction), a statement PostgreSQL aborted as a deadlock victim runs again, as a transaction
 * does (runAgainIfAborted).
 *
 * What the one snapshot means for the parts: two parts must not change the same row (the second changes nothing,
 * which a `rows` check reports as if another writer had moved it), an upsert must not meet a row an earlier part
 * inserted (PostgreSQL refuses the statement), and a part must not be named after a table (the name hides the table
 * from every later part).
 */
export async function writeTogether(q: Queryable, parts: StatementPart[]): Promise<Record<string, unknown[]>> {
  const shape = parts.map((part) => `${part.name}(${part.rows ?? '*'}): ${part.shape}`).join('\n');
  const values: Record<string, unknown> = {};
  for (const part of parts) {
    for (const key in part.values) values[`${part.name}.${key}`] = part.values[key];
  }
  try {
    // Inside a transaction the transaction is what runs again after a deadlock; on its own, the statement is.
    const run = () => runCompiled<Record<string, unknown[]>>(q, shape, (db, slot) => together(db, slot, parts), values);
    const { rows } = q.isTransaction ? await run() : await runAgainIfAborted(run);
    return rows[0]!;
  } catch (error) {
    if ((error as { code?: unknown }).code === INCOMPLETE_STATEMENT) {
      throw new IncompleteStatementError((error as Error).message);
    }
    throw error;
  }
}

function together(db: Kysely<Database>, slot: SlotOf, parts: StatementPart[]): RawBuilder<Record<string, unknown[]>> {
  const names = new Set(parts.map((part) => part.name));
  if (names.size !== parts.length) throw new Error('the parts of a statement need names of their own');
  const named = parts.map((part) => {
    const query = part.build(db, (key) => slot(`${part.name}.${key}`));
    return sql`${sql.id(part.name)} as (${query})`;
  });
  const answers = parts.map((part) => {
    const rows = sql`coalesce((select json_agg(${sql.id(part.name)}) from ${sql.id(part.name)}), '[]')`;
    if (part.rows === undefined) return sql`${rows} as ${sql.id(part.name)}`;
    const count = sql`(select count(*) from ${sql.id(part.name)})`;
    return sql`case when bookmaker_check(${count} = ${sql.lit(part.rows)}, ${sql.lit(part.name)}) then ${rows} end as ${sql.id(part.name)}`;
  });
  return sql<Record<string, unknown[]>>`with ${sql.join(named)} select ${sql.join(answers)}`;
}

/** A condition for a part: the earlier part `name` returned a row (it wrote something). */
export function after(name: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select from ${sql.id(name)})`;
}

/**
 * Rows to write, passed as one JSON parameter (`rowsJson`, a slot holding JSON.stringify of the rows) and read as
 * the table's row type (`r`): the statement's text and its parameter count stay the same however many rows there
 * are.
 */
export function jsonRows<T extends keyof Database>(table: T, rowsJson: string) {
  return sql<Database[T]>`json_populate_recordset(null::${sql.table(table)}, ${rowsJson}::json)`.as('r');
}

/**
 * A part inserting rows into `table`, written only when the part `gate` wrote a row, answering the `returning`
 * column of each row written. The columns are the first row's keys: every row names every column, and a value left
 * undefined is written as NULL, not as the column's default (the rows travel as JSON).
 */
export function insertPart<T extends keyof Database>(
  name: string,
  table: T,
  rows: object[],
  { gate, returning }: { gate: string; returning: string },
): StatementPart {
  if (rows.length === 0) throw new Error(`an insert into ${table} needs at least one row`);
  const columns = Object.keys(rows[0]!);
  return {
    name,
    shape: `insert into ${table} (${columns.join(', ')}) after ${gate} returning ${returning}`,
    build: (_db, slot) =>
      sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.id(column)))})
        select ${sql.join(columns.map((column) => sql.ref(`r.${column}`)))} from ${jsonRows(table, slot<string>('rows'))}
        where ${after(gate)} returning ${sql.ref(returning)}`,
    values: { rows: JSON.stringify(rows) },
  };
}

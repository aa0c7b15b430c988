import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
  type QueryResult,
  type RawBuilder,
} from 'kysely';
import type { Queryable } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Statements built and compiled by Kysely once per shape, then run again and again with new values: the hot paths'
 * statements (a placement's, a session's, a launch's) have the same text every time, and building and compiling
 * them cost more of the API's CPU than anything else of ours (docs/benchmarks.md, "Compiled once").
 *
 * A builder writes `slot('stake')` where a run's value goes; the value is bound by name when the statement runs.
 * Everything else the builder writes is part of the statement's text, so it must depend only on the shape it is
 * compiled for: two builds of one shape must give one text. With BOOKMAKER_CHECK_COMPILED=1 (the test command sets
 * it) every run builds the statement again and fails if its text or its values differ from the compiled one's.
 */

const SLOT = Symbol('slot');

/** What a builder writes where a run's value goes, typed as that value so the builder type-checks. */
export type SlotOf = <T = unknown>(key: string) => T;

interface Slot {
  readonly [SLOT]: string;
}

/**
 * Builds a statement's query: with `q`, a Kysely never connected (the one to build with: only its shape matters), and
 * `slot(key)` wherever a run's value goes.
 */
export type Builder<R> = (q: Kysely<Database>, slot: SlotOf) => Compilable<R> | RawBuilder<R>;

function compiledQueryOf<R>(query: Compilable<R> | RawBuilder<R>): CompiledQuery<R> {
  return 'isRawBuilder' in query ? query.compile(builder) : query.compile();
}

/** Where each parameter of a compiled statement comes from: a run's value, or the builder's own constant. */
type Source = { key: string } | { constant: unknown };

interface CompiledStatement {
  sql: string;
  sources: Source[];
}

/** Builds and compiles, never connects: the service's dialect without its driver (Kysely's DummyDriver). */
const builder = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const slot: SlotOf = <T>(key: string) => ({ [SLOT]: key }) as unknown as T;

const CHECKING = process.env.BOOKMAKER_CHECK_COMPILED === '1';

/** Each shape's statement, compiled by its first run. The shapes are the code's, so the map stays small. */
const compiled = new Map<string, CompiledStatement>();

/**
 * Runs the statement of `shape`, compiled from `build` on the first run of that shape, with `values` bound to its
 * slots. A slot without a value is a bug, and throws before anything is sent.
 */
export async function runCompiled<R>(
  q: Queryable,
  shape: string,
  build: Builder<R>,
  values: Record<string, unknown>,
): Promise<QueryResult<R>> {
  let statement = compiled.get(shape);
  if (statement === undefined) {
    statement = compile(build);
    compiled.set(shape, statement);
  }
  const parameters = bind(shape, statement, values);
  if (CHECKING) checkAgainstFreshBuild(shape, statement, build, values, parameters);
  return q.executeQuery<R>(CompiledQuery.raw(statement.sql, parameters));
}

function compile(build: Builder<unknown>): CompiledStatement {
  const { sql, parameters } = compiledQueryOf(build(builder, slot));
  const sources = parameters.map((parameter): Source => {
    const key = (parameter as Partial<Slot> | null)?.[SLOT];
    return typeof key === 'string' ? { key } : { constant: parameter };
  });
  return { sql, sources };
}

function bind(shape: string, statement: CompiledStatement, values: Record<string, unknown>): unknown[] {
  return statement.sources.map((source) => {
    if (!('key' in source)) return source.constant;
    const value = values[source.key];
    if (value === undefined) throw new Error(`statement ${shape}: no value for its slot "${source.key}"`);
    return value;
  });
}

/** The check of the test runs: the same shape built now, with this run's values, is the statement compiled first. */
function checkAgainstFreshBuild(
  shape: string,
  statement: CompiledStatement,
  build: Builder<unknown>,
  values: Record<string, unknown>,
  parameters: unknown[],
): void {
  const fresh = compiledQueryOf(build(builder, <T>(key: string) => values[key] as T));
  const same =
    fresh.sql === statement.sql &&
    fresh.parameters.length === parameters.length &&
    fresh.parameters.every((value, index) => Object.is(value, parameters[index]));
  if (!same) {
    throw new Error(`statement ${shape}: its text or values depend on more than its shape\n${fresh.sql}`);
  }
}

/** A statement as compiled, for a reader: its text, and where each of its parameters ($1, $2, …) comes from. */
export interface CompiledText {
  sql: string;
  /** In order: the slot a run's value is bound by (`stake`, `bet.id`), or the builder's own constant (`'active'`). */
  parameters: string[];
}

/**
 * The statements compiled so far in this process, by shape. Made when asked, from what the runs compiled: the runs
 * pay nothing for it. scripts/hot-statements.ts writes them where a reviewer sees them (hot-statements.sql).
 */
export function compiledSoFar(): ReadonlyMap<string, CompiledText> {
  return new Map(
    [...compiled].map(([shape, statement]) => [
      shape,
      {
        sql: statement.sql,
        parameters: statement.sources.map((source) => ('key' in source ? source.key : literal(source.constant))),
      },
    ]),
  );
}

/** A builder's constant as SQL would write it. */
function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (value === null || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  return JSON.stringify(value);
}

/** A row (or a SET) of slots: each column's value bound by the column's name, or by `keyOf(column)`. */
export function slotsOf(columns: string[], slot: SlotOf, keyOf: (column: string) => string = (column) => column) {
  return Object.fromEntries(columns.map((column) => [column, slot(keyOf(column))]));
}

/** The columns a row or a SET gives: as in Kysely, a column whose value is undefined is left out. */
export function columnsOf(row: object): string[] {
  return Object.entries(row)
    .filter(([, value]) => value !== undefined)
    .map(([column]) => column);
}

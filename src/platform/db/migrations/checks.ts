import { sql, type RawBuilder } from 'kysely';

/**
 * A CHECK that a column holds one of a list of values. A migration writes its list out (it is history and must
 * never change with the code); test/platform/schema.test.ts requires every such list to equal the constant the
 * column's TypeScript type comes from.
 */
export function oneOf(column: string, values: readonly string[]): RawBuilder<unknown> {
  return sql`check (${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))}))`;
}

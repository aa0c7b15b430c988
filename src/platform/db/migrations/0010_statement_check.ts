import { sql, type Kysely } from 'kysely';

/**
 * The check that keeps a statement of several parts all or nothing without a transaction around it
 * (platform/db/one-statement.ts): raised inside the statement, the error undoes every part of it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function bookmaker_check(holds boolean, part text) returns boolean language plpgsql as $$
    begin
      if holds is not true then
        raise exception using errcode = 'BM001', message = part;
      end if;
      return true;
    end
    $$`.execute(db);
}

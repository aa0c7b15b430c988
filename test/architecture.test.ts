import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

/**
 * The layout rules of ARCHITECTURE.md that the linter cannot see. ESLint already refuses SQL outside store.ts files
 * and any import of another folder's store; this checks that each store touches only its own domain's tables,
 * and that every table has exactly one owner.
 */
const OWNERS: Record<string, string[]> = {
  'src/staff': ['staff_users', 'staff_tokens'],
  'src/platform/audit': ['audit_log'],
  'src/platform/idempotency': ['idempotency_records'],
  'src/aggregator': ['aggregators', 'aggregator_authorizations', 'aggregator_keys', 'clients'],
  'src/tenants': ['tenants', 'integration_keys'],
  'src/integration': ['players', 'player_sessions', 'session_tokens', 'launch_tokens'],
  'src/catalog': ['sports', 'competitions', 'events', 'markets', 'selections'],
  'src/betting': ['bets', 'bet_legs', 'exposure', 'bet_exposure', 'cashouts'],
  'src/wallet': ['wallet_obligations', 'wallet_calls', 'wallet_obligation_history', 'adjustments'],
};

const ROOT = join(import.meta.dirname, '..');
const TABLE_USE =
  /\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*'([a-z_]+)/g;
const FROM_LIST = /\.from\(\[([^\]]+)\]/g;
const WITH_NAME = /\.with\(\s*(?:\(\w+\)\s*=>\s*\w+\()?'([a-z_]+)'/g;

function storeFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return storeFiles(path);
    return entry.name === 'store.ts' ? [path] : [];
  });
}

function tablesUsedBy(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const direct = [...text.matchAll(TABLE_USE)].map((match) => match[1]!);
  const listed = [...text.matchAll(FROM_LIST)].flatMap((match) =>
    [...match[1]!.matchAll(/'([a-z_]+)/g)].map((m) => m[1]!),
  );
  // A common table expression the store names itself (`.with('claimed', …)` or `.with((cte) => cte('token')…, …)`)
  // is not a table, unless it takes a table's name.
  const tables = new Set(Object.values(OWNERS).flat());
  const named = new Set([...text.matchAll(WITH_NAME)].map((match) => match[1]!).filter((name) => !tables.has(name)));
  return [...new Set([...direct, ...listed])].filter((table) => !named.has(table));
}

let database: TestDatabase;
before(async () => (database = await createTestDatabase()));
after(() => database.close());

describe('architecture', () => {
  it("a store touches only its own domain's tables", () => {
    const stores = storeFiles(join(ROOT, 'src'));
    assert.ok(stores.length >= Object.keys(OWNERS).length);
    const trespasses: string[] = [];
    for (const file of stores) {
      const folder = relative(ROOT, join(file, '..'));
      const own = OWNERS[folder];
      if (!own) {
        trespasses.push(`${folder}/store.ts: a store with no tables of its own in OWNERS`);
        continue;
      }
      for (const table of tablesUsedBy(file)) {
        if (!own.includes(table)) trespasses.push(`${folder}/store.ts uses ${table}`);
      }
    }
    assert.deepEqual(trespasses, []);
  });

  it('every table of the migrated database has exactly one owner', async () => {
    const { rows } = await sql<{ name: string }>`
      select tablename as name from pg_tables
      where schemaname = 'public' and tablename not like 'kysely_migration%'`.execute(database.db);
    const owned = Object.values(OWNERS).flat();
    assert.equal(new Set(owned).size, owned.length, 'a table with two owners');
    assert.deepEqual(rows.map((row) => row.name).sort(), [...owned].sort());
  });
});

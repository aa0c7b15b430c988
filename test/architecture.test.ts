import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

/**
 * The layout rules of ARCHITECTURE.md that the linter cannot see. ESLint already refuses SQL outside stores (a
 * `store.ts`, or the files of a `store/` folder) and any import of another folder's store; this checks that each store
 * touches only its own domain's tables, and that every table has exactly one owner.
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
  'src/preferences': ['player_favourites', 'player_settings'],
  'src/feed': ['feed_producers', 'feed_event_sequences'],
};

const ROOT = join(import.meta.dirname, '..');
const TABLE_USE =
  /\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*'([a-z_]+)|\binsertPart\([^,]+,\s*'([a-z_]+)/g;
const FROM_LIST = /\.from\(\[([^\]]+)\]/g;
const WITH_NAME = /\.with\(\s*(?:\(\w+\)\s*=>\s*\w+\()?'([a-z_]+)'/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A store: a domain's `store.ts`, or a file of its `store/` folder (as ESLint's STORE_FILES). */
const STORE_FILE = /\/store(?:\/[\w-]+)?\.ts$/;
const storeFiles = (folder: string) => sourceFiles(folder).filter((file) => STORE_FILE.test(file));

/**
 * The exported functions of some stores that write a table: those whose own text inserts into, updates or deletes from
 * it (through Kysely or in SQL), and those that call one that does (in the same file or another of them: the files of
 * a store/ folder, and a domain's rooms, use one another's).
 */
function writersOf(files: string[], table: string): string[] {
  const functions = files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/^(export )?(?:async )?function (\w+)/gm)].map((match, i, all) => ({
      exported: match[1] !== undefined,
      name: match[2]!,
      body: text.slice(match.index, all[i + 1]?.index ?? text.length),
    }));
  });
  const writes = new RegExp(
    `(?:insertInto|updateTable|deleteFrom)\\(\\s*'${table}'|\\binsertPart\\([^,]+,\\s*'${table}'|\\b(?:update|insert into|delete from) ${table}\\b`,
  );
  const writers = new Set(functions.filter(({ body }) => writes.test(body)).map(({ name }) => name));
  for (let grew = true; grew;) {
    grew = false;
    for (const { name, body } of functions) {
      if (writers.has(name) || ![...writers].some((writer) => new RegExp(`\\b${writer}\\(`).test(body))) continue;
      writers.add(name);
      grew = true;
    }
  }
  return functions.filter(({ exported, name }) => exported && writers.has(name)).map(({ name }) => name);
}

function tablesUsedBy(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const direct = [...text.matchAll(TABLE_USE)].map((match) => (match[1] ?? match[2])!);
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
      const path = relative(ROOT, file);
      // A domain of rooms (src/wallet/ledger/, …): each room's store is the domain's.
      const owner = Object.keys(OWNERS).find((domain) => path.startsWith(`${domain}/`));
      if (!owner) {
        trespasses.push(`${path}: a store with no tables of its own in OWNERS`);
        continue;
      }
      for (const table of tablesUsedBy(file)) {
        if (!OWNERS[owner]!.includes(table)) trespasses.push(`${path} uses ${table}`);
      }
    }
    assert.deepEqual(trespasses, []);
  });

  it('every file that names a table in a statement is a store the check above reads', () => {
    // So the check cannot miss a file that ESLint lets hold SQL (its STORE_FILES, and src/platform/db/ with the
    // migrations and the statement builders) under a name the check does not read.
    const unread = sourceFiles(join(ROOT, 'src'))
      .map((file) => relative(ROOT, file))
      .filter((file) => !STORE_FILE.test(file) && !file.startsWith('src/platform/db/'))
      .filter((file) => tablesUsedBy(join(ROOT, file)).length > 0);
    assert.deepEqual(unread, []);
  });

  it("only the ledger's files write wallet_obligations", () => {
    const writers = writersOf(storeFiles(join(ROOT, 'src/wallet')), 'wallet_obligations');
    for (const writer of ['insertObligations', 'moveObligation', 'claimDue'])
      assert.ok(writers.includes(writer), writer);
    const ledger = /^src\/wallet\/(?:ledger\/[\w-]+|[\w-]+\/store(?:\/[\w-]+)?)\.ts$/;
    const calls = sourceFiles(join(ROOT, 'src'))
      .map((file) => relative(ROOT, file))
      .filter((file) => !ledger.test(file))
      .flatMap((file) => {
        const text = readFileSync(join(ROOT, file), 'utf8');
        // store.insertObligations( (any store's namespace), or a named import's insertObligations(, not a method of
        // the same name.
        const called = (writer: string) => new RegExp(`(?:\\b\\w*[sS]tore\\.|(?<![.\\w#]))${writer}\\(`).test(text);
        return writers.filter(called).map((writer) => `${file}: ${writer}`);
      });
    assert.deepEqual(calls, []);
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

import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import ts from 'typescript';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * The table types Kysely checks queries against (Database in src/platform/db/schema.ts, with every domain's
 * src/<domain>/tables.ts) must be the tables the migrations
 * make: the same columns, the same nullability, compatible types, and for every column with a list of allowed
 * values (a CHECK ... IN (...)) exactly that list as its TypeScript union.
 */
interface DeclaredColumn {
  nullable: boolean;
  kind: 'text' | 'number' | 'boolean' | 'timestamp' | 'json' | 'enum';
  values?: string[];
}

const SRC = join(import.meta.dirname, '..', '..', 'src');
const SCHEMA_FILE = join(SRC, 'platform', 'db', 'schema.ts');
/** Each domain adds its tables to Database in its tables.ts. */
const TABLE_FILES = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(SRC, entry.name, 'tables.ts')))
  .map((entry) => join(SRC, entry.name, 'tables.ts'));
const COMPATIBLE: Record<DeclaredColumn['kind'], string[]> = {
  text: ['text'],
  enum: ['text'],
  number: ['integer', 'bigint'],
  boolean: ['boolean'],
  timestamp: ['timestamp with time zone'],
  json: ['jsonb'],
};

/** Table -> column -> what schema.ts declares, read with the TypeScript checker (select types of ColumnType). */
function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const program = ts.createProgram([SCHEMA_FILE, ...TABLE_FILES], {
    strict: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(SCHEMA_FILE)!;
  const database = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === 'Database',
  )!;
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const columns = new Map<string, DeclaredColumn>();
    const tableType = checker.getTypeOfSymbolAtLocation(table, database);
    for (const column of tableType.getProperties()) {
      let type = checker.getTypeOfSymbolAtLocation(column, database);
      const select = type.getProperty('__select__');
      if (select) type = checker.getTypeOfSymbolAtLocation(select, database);
      columns.set(column.name, describeType(checker, type));
    }
    tables.set(table.name, columns);
  }
  return tables;
}

function describeType(checker: ts.TypeChecker, type: ts.Type): DeclaredColumn {
  const parts = type.isUnion() ? type.types : [type];
  const nullable = parts.some((part) => part.flags & ts.TypeFlags.Null);
  const present = parts.filter((part) => !(part.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
  if (present.every((part) => part.isStringLiteral())) {
    return { nullable, kind: 'enum', values: present.map((part) => part.value).sort() };
  }
  const text = checker.typeToString(present.length === 1 ? present[0]! : type);
  if (present.every((part) => part.flags & ts.TypeFlags.String)) return { nullable, kind: 'text' };
  if (present.every((part) => part.flags & ts.TypeFlags.Number)) return { nullable, kind: 'number' };
  if (present.every((part) => part.flags & ts.TypeFlags.BooleanLike)) return { nullable, kind: 'boolean' };
  if (text === 'Date') return { nullable, kind: 'timestamp' };
  return { nullable, kind: 'json' };
}

let database: TestDatabase;
before(async () => (database = await createTestDatabase()));
after(() => database.close());

async function migratedTables() {
  const { rows: columns } = await sql<{ table: string; column: string; type: string; nullable: string }>`
    select table_name as "table", column_name as "column", data_type as "type", is_nullable as "nullable"
    from information_schema.columns
    where table_schema = 'public' and table_name not like 'kysely_migration%'`.execute(database.db);
  const { rows: checks } = await sql<{ table: string; definition: string }>`
    select conrelid::regclass::text as "table", pg_get_constraintdef(oid) as "definition"
    from pg_constraint where contype = 'c' and connamespace = 'public'::regnamespace`.execute(database.db);
  const allowed = new Map<string, string[]>();
  for (const check of checks) {
    const list = /^CHECK \(\((\w+) = ANY \(ARRAY\[(.+)\]\)\)\)$/.exec(check.definition);
    const single = /^CHECK \(\((\w+) = '([^']*)'::text\)\)$/.exec(check.definition);
    if (list) allowed.set(`${check.table}.${list[1]}`, [...list[2]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!).sort());
    else if (single) allowed.set(`${check.table}.${single[1]}`, [single[2]!]);
  }
  return { columns, allowed };
}

describe('database types and migrations', () => {
  it('schema.ts declares exactly the tables and columns the migrations make, with their nullability and types', async () => {
    const declared = declaredTables();
    const { columns, allowed } = await migratedTables();
    const problems: string[] = [];
    const migrated = new Map<string, typeof columns>();
    for (const row of columns) migrated.set(row.table, [...(migrated.get(row.table) ?? []), row]);
    for (const table of new Set([...declared.keys(), ...migrated.keys()])) {
      const types = declared.get(table);
      const rows = migrated.get(table);
      if (!types) problems.push(`${table}: made by the migrations, missing from schema.ts`);
      if (!rows) problems.push(`${table}: in schema.ts, made by no migration`);
      if (!types || !rows) continue;
      for (const name of new Set([...types.keys(), ...rows.map((row) => row.column)])) {
        const declaredColumn = types.get(name);
        const row = rows.find((candidate) => candidate.column === name);
        const where = `${table}.${name}`;
        if (!declaredColumn || !row) {
          problems.push(`${where}: ${declaredColumn ? 'not in the database' : 'not in schema.ts'}`);
          continue;
        }
        if (declaredColumn.nullable !== (row.nullable === 'YES')) {
          problems.push(
            `${where}: schema.ts says ${declaredColumn.nullable ? '' : 'not '}nullable, the database the opposite`,
          );
        }
        if (!COMPATIBLE[declaredColumn.kind].includes(row.type)) {
          problems.push(`${where}: schema.ts ${declaredColumn.kind}, database ${row.type}`);
        }
        const values = allowed.get(where);
        if (values && declaredColumn.kind !== 'enum')
          problems.push(
            `${where}: the database allows only ${values.join(', ')}, schema.ts says ${declaredColumn.kind}`,
          );
        if (declaredColumn.kind === 'enum' && JSON.stringify(values) !== JSON.stringify(declaredColumn.values)) {
          problems.push(
            `${where}: schema.ts allows ${declaredColumn.values!.join(', ')}, the database ${values?.join(', ') ?? 'anything'}`,
          );
        }
      }
    }
    assert.deepEqual(problems, []);
  });
});

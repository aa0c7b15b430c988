import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001_foundation.ts';

/** Every migration, in order. Both PGlite and PostgreSQL run exactly this list. */
const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

// Writes the two published OpenAPI documents to a folder, exactly as the server generates them, so that tools
// (redocly lint in the test command, SDK generators) can read them without a running server.
// Usage: node scripts/openapi.ts <folder>
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCUMENTS } from '../src/api-documents.ts';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/platform/clock.ts';
import { loadConfig } from '../src/platform/config.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { subDocument } from '../src/platform/http/openapi.ts';

const folder = process.argv[2];
if (!folder) {
  process.stderr.write('usage: node scripts/openapi.ts <folder>\n');
  process.exit(2);
}
mkdirSync(folder, { recursive: true });
const database = await openDatabase({});
const config = loadConfig({
  ...process.env,
  APP_ENV: 'development',
  SECRETS_KEY: randomBytes(32).toString('base64'),
  LOG_LEVEL: 'silent',
});
const app = await buildApp({ config, db: database.db, clock: systemClock });
await app.http.ready();
for (const document of DOCUMENTS) {
  const file = join(folder, `${document.url.split('/').slice(-2).join('-')}`);
  writeFileSync(file, JSON.stringify(subDocument(app.http, document), null, 2));
  process.stdout.write(`${file}\n`);
}
await app.http.close();
await database.close();

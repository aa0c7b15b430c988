import { readFileSync } from 'node:fs';

/** The version of this build, from package.json: shown by `bookmaker --version`, `GET /` and the API documents. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

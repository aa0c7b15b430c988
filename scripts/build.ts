// npm run build: the browser side of the product. Builds the SDK (/embed/v1.js and its ES module package) and the
// iframe app (web/dist), prints each artefact's size and fails when a budget is exceeded:
//   - SDK: at most 5,120 bytes minified (the contract's "about 5 KB"); the aim, 2 KB gzip, is reported;
//   - app: at most 60 KB gzip of JavaScript on first load (every script index.html loads).
// `npm start` and `npm test` run it first; the output is never committed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { buildSdk } from '../sdk/build.ts';

const ROOT = join(import.meta.dirname, '..');
const APP_DIST = join(ROOT, 'web', 'dist');
export const APP_MAX_GZIP = 60 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

process.stderr.write('build: the SDK (esbuild) ...\n');
await buildSdk();

process.stderr.write('build: the iframe app (vite) ...\n');
await build({ configFile: join(ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });

const html = readFileSync(join(APP_DIST, 'index.html'), 'utf8');
const firstLoad = [...html.matchAll(/<script[^>]+src="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
const gzipped = firstLoad.map((file) => gzipSync(readFileSync(join(APP_DIST, file))).length);
const total = gzipped.reduce((sum, size) => sum + size, 0);
const lazy = readdirSync(join(APP_DIST, 'assets')).filter((file) => file.endsWith('.js') && !html.includes(file));
process.stdout.write(
  `app: ${firstLoad.join(', ')}: ${kb(total)} gzip on first load (budget ${kb(APP_MAX_GZIP)})` +
    `${lazy.length > 0 ? `; ${lazy.length} script(s) loaded later` : ''}\n`,
);
if (firstLoad.length === 0) {
  process.stderr.write('build: web/dist/index.html loads no script: the app build is broken\n');
  process.exit(1);
}
if (total > APP_MAX_GZIP) {
  process.stderr.write(`build: the app's first load is ${kb(total)} gzip, over the ${kb(APP_MAX_GZIP)} budget\n`);
  process.exit(1);
}

// npm run build: the browser side of the product. Builds the SDK (/embed/v1.js and its ES module package) and the
// iframe app (web/dist) and the staff console (console/dist), prints each artefact's size and fails when a budget is exceeded:
//   - SDK: at most 5,120 bytes minified (the contract's "about 5 KB"); the aim, 2 KB gzip, is reported;
//   - app: at most 60 KB gzip of JavaScript on first load (every script index.html loads);
//   - console (console/dist, served at /admin): at most 100 KB gzip on first load; its areas load later.
// `npm start` and `npm test` run it first; the output is never committed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { buildSdk } from '../sdk/build.ts';

const ROOT = join(import.meta.dirname, '..');
export const APP_MAX_GZIP = 60 * 1024;
/** The staff console's first screen (sign-in and the frame); each area is a chunk loaded when opened. */
const CONSOLE_MAX_GZIP = 100 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

process.stderr.write('build: the SDK (esbuild) ...\n');
await buildSdk();

/** Builds one Vite app and checks its first load (every script its index.html loads) against a gzip budget. */
async function buildApp(name: string, folder: string, budget: number): Promise<void> {
  process.stderr.write(`build: the ${name} (vite) ...\n`);
  await build({ configFile: join(ROOT, folder, 'vite.config.ts'), logLevel: 'warn' });
  const dist = join(ROOT, folder, 'dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const firstLoad = [...html.matchAll(/<script[^>]+src="\/(?:admin\/)?(assets\/[^"]+\.js)"/g)].map(
    (match) => match[1]!,
  );
  const gzipped = firstLoad.map((file) => gzipSync(readFileSync(join(dist, file))).length);
  const total = gzipped.reduce((sum, size) => sum + size, 0);
  const lazy = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js') && !html.includes(file));
  process.stdout.write(
    `${name}: ${firstLoad.join(', ')}: ${kb(total)} gzip on first load (budget ${kb(budget)})` +
      `${lazy.length > 0 ? `; ${lazy.length} script(s) loaded later` : ''}\n`,
  );
  if (firstLoad.length === 0) {
    process.stderr.write(`build: ${folder}/dist/index.html loads no script: the ${name} build is broken\n`);
    process.exit(1);
  }
  if (total > budget) {
    process.stderr.write(`build: the ${name}'s first load is ${kb(total)} gzip, over the ${kb(budget)} budget\n`);
    process.exit(1);
  }
}

await buildApp('app', 'web', APP_MAX_GZIP);
await buildApp('console', 'console', CONSOLE_MAX_GZIP);

// npm run build: the browser side of the product. Builds the SDK (/embed/v1.js and its ES module package) and the
// iframe app (web/dist) and the staff console (console/dist), writes the brotli (`.br`) and gzip (`.gz`) forms of
// every text file the server sends (the server picks one by Accept-Encoding), prints what a browser downloads and
// fails when a budget is exceeded:
//   - SDK: at most 5,120 bytes minified (the contract's "about 5 KB"); the aim, 2 KB gzip, is reported;
//   - app: at most 60 KB gzip on first load (index.html and every script and style it loads);
//   - console (console/dist, served at /admin): at most 100 KB gzip on first load; its areas load later.
// The sizes are those of the files written, as sent. With `--vitals` (`npm run build`, and the test command's build
// step) it then measures the app's Core Web Vitals on a throttled phone in headless Chromium (e2e/vitals.ts), and
// Lighthouse's performance score, Total Blocking Time and main-thread work on its mobile profile, and fails over
// their budgets; without Chromium it says so and goes on, unless REQUIRE_BROWSER is set. `npm start`
// builds without them. The output is never committed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { buildSdk } from '../sdk/build.ts';
import { precompress, type Sent } from './precompress.ts';

const ROOT = join(import.meta.dirname, '..');
export const APP_MAX_GZIP = 60 * 1024;
/** The staff console's first screen (sign-in and the frame); each area is a chunk loaded when opened. */
const CONSOLE_MAX_GZIP = 100 * 1024;
/** The files sent as text; images and fonts are compressed already. */
const TEXT_FILE = /\.(?:js|css|html|svg|json|map)$/;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Compresses every text file under a folder; what is sent for each, by its path inside the folder. */
function precompressFolder(folder: string): Map<string, Sent> {
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => TEXT_FILE.test(file));
  return new Map(files.map((file) => [file.replaceAll('\\', '/'), precompress(join(folder, file))]));
}

const total = (sizes: Sent[], coding: keyof Sent) => sizes.reduce((sum, size) => sum + size[coding], 0);

process.stderr.write('build: the SDK (esbuild) ...\n');
const [sdk] = await buildSdk();
const sdkSent = precompress(join(ROOT, sdk!.file));
process.stdout.write(
  `sdk: /embed/v1.js sent as ${sdkSent.br.toLocaleString('en-US')} B brotli, ` +
    `${sdkSent.gzip.toLocaleString('en-US')} B gzip (${sdkSent.identity.toLocaleString('en-US')} B uncompressed)\n`,
);

/**
 * Builds one Vite app, writes the compressed forms of its files and checks its first load (index.html and every
 * script and style it loads, as sent compressed) against a gzip budget.
 */
async function buildApp(name: string, folder: string, budget: number): Promise<void> {
  process.stderr.write(`build: the ${name} (vite) ...\n`);
  await build({ configFile: join(ROOT, folder, 'vite.config.ts'), logLevel: 'warn' });
  const dist = join(ROOT, folder, 'dist');
  const sent = precompressFolder(dist);
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const loaded = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/(?:admin\/)?(assets\/[^"]+)"/g)].map(
    (match) => match[1]!,
  );
  if (!loaded.some((file) => file.endsWith('.js'))) {
    process.stderr.write(`build: ${folder}/dist/index.html loads no script: the ${name} build is broken\n`);
    process.exit(1);
  }
  const firstLoad = ['index.html', ...new Set(loaded)].map((file) => {
    const size = sent.get(file);
    if (!size) throw new Error(`${folder}/dist/index.html loads ${file}, which the build did not write`);
    return size;
  });
  const lazy = [...sent.keys()].filter((file) => file.endsWith('.js') && !loaded.includes(file));
  const gzip = total(firstLoad, 'gzip');
  process.stdout.write(
    `${name}: first load (index.html, ${[...new Set(loaded)].join(', ')}) sent as ${kb(total(firstLoad, 'br'))} brotli, ` +
      `${kb(gzip)} gzip (budget ${kb(budget)} gzip; ${kb(total(firstLoad, 'identity'))} uncompressed)` +
      `${lazy.length > 0 ? `; ${lazy.length} script(s) loaded later` : ''}\n`,
  );
  if (gzip > budget) {
    process.stderr.write(`build: the ${name}'s first load is ${kb(gzip)} gzip, over the ${kb(budget)} budget\n`);
    process.exit(1);
  }
}

await buildApp('app', 'web', APP_MAX_GZIP);
await buildApp('console', 'console', CONSOLE_MAX_GZIP);

if (process.argv.includes('--vitals')) await reportVitals();

/** The app's Core Web Vitals on the phone profile, printed beside its bundle budget; over budget fails the build. */
async function reportVitals(): Promise<void> {
  // loaded only here: `npm start` builds without a browser or a test stack
  const { browserUnavailable, CHROMIUM, launchBrowser } = await import('../e2e/helpers/browser.ts');
  const unavailable = browserUnavailable(CHROMIUM);
  if (unavailable) {
    process.stdout.write(`app: Core Web Vitals not measured: ${unavailable}\n`);
    return;
  }
  const { startStack } = await import('../e2e/helpers/stack.ts');
  const { describeLighthouse, describeVitals, LIGHTHOUSE_RUNS, measureLighthouse, measureVitals, PHONE_PROFILE } =
    await import('../e2e/vitals.ts');
  process.stderr.write('build: measuring the app on a throttled phone (headless Chromium, the demo catalog) ...\n');
  const stack = await startStack();
  // the browser a person runs, not the tests' headless shell: what is measured is what a phone's Chromium does
  const browser = await launchBrowser(CHROMIUM);
  try {
    const started = performance.now();
    const { line, over } = describeVitals(await measureVitals(browser, stack));
    const profile = `${PHONE_PROFILE.cpuSlowdown}x slower CPU, Slow 4G`;
    process.stdout.write(`app: Core Web Vitals on a ${PHONE_PROFILE.viewport.width} px phone (${profile}): ${line}\n`);
    if (over.length > 0) {
      process.stderr.write(`build: the app's ${over.join(', ')} over budget: see e2e/vitals.ts to measure it alone\n`);
      process.exitCode = 1;
    }
    process.stderr.write(`build: Lighthouse, mobile profile, ${LIGHTHOUSE_RUNS} runs ...\n`);
    const lighthouse = describeLighthouse(await measureLighthouse(stack, LIGHTHOUSE_RUNS));
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    process.stdout.write(
      `app: Lighthouse (mobile, median of ${LIGHTHOUSE_RUNS}): ${lighthouse.line}; measured in ${seconds} s\n`,
    );
    if (lighthouse.over.length > 0) {
      process.stderr.write(
        `build: the app's Lighthouse ${lighthouse.over.join(', ')}: long tasks on the main thread while the first ` +
          `screen loads (renders of what did not change, timers, animations the compositor cannot run); ` +
          `see docs/embedding.md (Speed on a phone) for how to profile it\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    await stack.close();
  }
}

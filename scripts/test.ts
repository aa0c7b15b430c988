// The test command: the browser build, the static checks (types, lint, format, OpenAPI lint, generated files), then
// the tests: every file on embedded PGlite (browser tests included) and, when DATABASE_URL is set, those whose outcome
// can depend on the engine on PostgreSQL too, from one queue (scripts/run-tests.ts). Exits non-zero if any step fails;
// every step runs so one run shows every problem. `npm test -- test/x.test.ts` runs only those files.
import { spawn, spawnSync } from 'node:child_process';
import { globSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_INDEPENDENT } from '../test/engines.ts';
import { filesOf, runPasses, type Pass } from './run-tests.ts';

const files = process.argv.slice(2);
// Every statement compiled once per shape is also built afresh on each run and compared (src/platform/db/compiled.ts).
process.env.BOOKMAKER_CHECK_COMPILED = '1';
// Each test file is a process of its own that loads the service's modules: V8's compiled code for them is kept on
// disk and shared, which cuts a file's start by about 0.6 s of a core (measured: 0.35 s to load the app, not 1).
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'bookmaker-compile-cache');
const { DATABASE_URL, ...withoutDatabase } = process.env;
const quiet = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  process.stdout.write(`\n=== ${label} ===\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  const ok = result.status === 0;
  process.stdout.write(
    `=== ${label}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s ===\n`,
  );
  return ok;
}

interface Check {
  label: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs the checks two at a time (each is one process on one core), in the order given (the longest first), each one's
 * output held and printed whole when it ends, so two never interleave.
 */
async function runTogether(checks: Check[]): Promise<boolean[]> {
  process.stdout.write(
    `\n=== ${checks.length} static checks, two at a time: ${checks.map((c) => c.label.split(' (')[0]).join(', ')} ===\n`,
  );
  const queue = [...checks];
  const outcomes = new Map<Check, boolean>();
  const worker = async () => {
    for (let check = queue.shift(); check; check = queue.shift()) outcomes.set(check, await runHeld(check));
  };
  await Promise.all([worker(), worker()]);
  return checks.map((check) => outcomes.get(check) ?? false);
}

function runHeld({ label, command, args, env = process.env }: Check): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    const end = (ok: boolean, why = '') => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n=== ${label} ===\n${Buffer.concat(output).toString()}${why}`);
      process.stdout.write(`=== ${label}: ${ok ? 'ok' : 'FAILED'} in ${seconds} s ===\n`);
      resolve(ok);
    };
    child.on('error', (error) => end(false, `${error.message}\n`));
    child.on('close', (code) => end(code === 0));
  });
}

const results: boolean[] = [];
// The browser side is built first: the server serves it and the browser tests load it. The app's Core Web Vitals
// (a browser loading the built app) are measured in the full run only, not for `npm test -- one-file`.
results.push(
  files.length === 0
    ? run(
        "build (the SDK, the iframe app and the staff console, with their size budgets and the app's Core Web Vitals)",
        process.execPath,
        ['scripts/build.ts', '--vitals'],
      )
    : run('build (the SDK, the iframe app and the staff console, with their size budgets)', process.execPath, [
        'scripts/build.ts',
      ]),
);
if (files.length === 0) {
  const documents = mkdtempSync(join(tmpdir(), 'bookmaker-openapi-'));
  // The longest first (measured): ESLint reads every file with its types, Prettier every file.
  const checks: Check[] = [
    { label: 'lint (eslint)', command: 'eslint', args: ['--max-warnings', '0', '.'] },
    { label: 'format (prettier --check)', command: 'prettier', args: ['--check', '--log-level', 'warn', '.'] },
    // The demo is in the root project (same options): src is checked once there, and again only where e2e imports it.
    ...['.', 'e2e', 'web', 'console', 'web/test', 'sdk', 'ui-shared'].map((project) => ({
      label: `type-check ${project} (tsc --noEmit)`,
      command: 'tsc',
      args: ['--noEmit', '-p', project],
    })),
    {
      label: 'OpenAPI documents (redocly lint, recommended rules)',
      command: 'sh',
      args: [
        '-c',
        `node scripts/openapi.ts ${documents} > /dev/null && ` +
          `redocly lint --format stylish ${documents}/v1-openapi.json ${documents}/aggregator-openapi.json`,
      ],
      env: quiet,
    },
    // The SQL of the statements compiled once per shape is checked in (src/platform/db/hot-statements.sql), so a
    // change to it shows in review: a stale file fails here.
    {
      label: 'hot statements (src/platform/db/hot-statements.sql is the SQL the hot paths compile)',
      command: process.execPath,
      args: ['scripts/hot-statements.ts', '--check'],
      env: withoutDatabase,
    },
    // The API types of the app and the console are generated from the v1 document and checked in: stale ones fail
    // here, and code that no longer matches them fails the type-check of `web` or `console`.
    {
      label: 'API types (ui-shared/generated/openapi.d.ts is what the v1 OpenAPI document gives)',
      command: process.execPath,
      args: ['scripts/api-types.ts', '--check'],
    },
    {
      label: 'import rules (dependency-cruiser: no cycles, platform imports no domain, stores stay home)',
      command: 'depcruise',
      args: [
        'src',
        'web/src',
        'console/src',
        'ui-shared',
        'sdk',
        'demo',
        'bench',
        'test',
        'e2e',
        'scripts',
        'reference-wallet',
      ],
    },
    { label: 'dead files, exports and dependencies (knip)', command: 'knip', args: ['--no-progress'] },
  ];
  results.push(...(await runTogether(checks)));
}
// web/test: the iframe app's logic (slip arithmetic, formatting, router, bridge); no database, no browser.
const passes: Pass[] = [
  {
    name: 'embedded PGlite',
    files: filesOf(files.length > 0 ? files : ['test/**/*.test.ts', 'web/test/**/*.test.ts', 'e2e/**/*.test.ts']),
    env: withoutDatabase,
  },
];
if (DATABASE_URL) {
  // The browser tests check pages, not the database: once is enough. So do the files of test/engines.ts, whose
  // outcome cannot depend on the engine; every other file under test/ runs again on PostgreSQL.
  const name = `PostgreSQL (${new URL(DATABASE_URL).host})`;
  passes.push({ name, files: files.length > 0 ? filesOf(files) : engineDependentTests(), env: process.env });
}
const started = Date.now();
const passed = await runPasses(passes);
process.stdout.write(`=== tests: ${passed ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s ===\n`);
results.push(passed);
process.exit(results.every(Boolean) ? 0 : 1);

function engineDependentTests(): string[] {
  return globSync('test/**/*.test.ts')
    .filter((file) => !(file in ENGINE_INDEPENDENT))
    .sort();
}

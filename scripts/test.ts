// The test command: type-check, then every test against embedded PGlite, then again against
// PostgreSQL when DATABASE_URL is set. Exits non-zero if any run fails.
import { spawnSync } from 'node:child_process';

const files = process.argv.slice(2);
const tests = files.length > 0 ? files : ['test/**/*.test.ts'];

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv): boolean {
  process.stdout.write(`\n=== ${label} ===\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  return result.status === 0;
}

const { DATABASE_URL, ...withoutDatabase } = process.env;
const nodeTest = ['--test', '--test-concurrency=2', '--test-timeout=120000', ...tests];

let ok = run('type-check (tsc --noEmit)', 'tsc', ['--noEmit', '-p', '.'], process.env);
ok = run('tests on embedded PGlite', process.execPath, nodeTest, withoutDatabase) && ok;
if (DATABASE_URL) {
  ok = run(`tests on PostgreSQL (${new URL(DATABASE_URL).host})`, process.execPath, nodeTest, process.env) && ok;
}
process.exit(ok ? 0 : 1);

// Runs test files two at a time (one process each), the longest first: `node --test` starts files in name order, so a
// minute-long file that happens to sort last runs alone at the end while the other core waits. Used by scripts/test.ts
// for each pass; `node scripts/run-tests.ts <files or globs>` runs any set the same way.
import { globSync } from 'node:fs';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { LONGEST_FIRST } from '../test/schedule.ts';

/** Two cores: three or four files at a time gained nothing, measured (docs/testing.md). */
const CONCURRENCY = 2;
const TIMEOUT_MS = 120_000;

const files = [...new Set(process.argv.slice(2).flatMap((pattern) => globSync(pattern)))].sort();
if (files.length === 0) {
  process.stderr.write('No test file matches; give files or globs, e.g. test/**/*.test.ts.\n');
  process.exit(1);
}
const rank = (file: string) => {
  const index = LONGEST_FIRST.indexOf(file);
  return index === -1 ? LONGEST_FIRST.length : index;
};
const ordered = files.toSorted((a, b) => rank(a) - rank(b));

const stream = run({ files: ordered, concurrency: CONCURRENCY, timeout: TIMEOUT_MS });
stream.on('test:fail', () => (process.exitCode = 1));
stream.compose(spec).pipe(process.stdout);

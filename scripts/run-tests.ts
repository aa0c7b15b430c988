// Runs test files two at a time (one process each), the longest first: `node --test` starts files in name order, so a
// minute-long file that happens to sort last runs alone at the end while the other core waits. Used by scripts/test.ts
// for each pass; `node scripts/run-tests.ts <files or globs>` runs any set the same way.
import { globSync } from 'node:fs';
import { relative } from 'node:path';
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

/** When each file was given its place and last heard from: how long it held the place (test/schedule.ts). */
const heard = new Map<string, { first: number; last: number }>();
for (const event of ['test:dequeue', 'test:pass', 'test:fail'] as const) {
  stream.on(event, ({ file }: { file?: string }) => {
    if (!file) return;
    const now = performance.now();
    const times = heard.get(file) ?? { first: now, last: now };
    heard.set(file, { first: times.first, last: now });
  });
}
const report = stream.compose(spec);
report.pipe(process.stdout, { end: false });
report.on('end', () => {
  const slowest = [...heard]
    .map(([file, { first, last }]) => ({ file: relative(process.cwd(), file), seconds: (last - first) / 1000 }))
    .toSorted((a, b) => b.seconds - a.seconds)
    .slice(0, 15);
  process.stdout.write(
    '\nThe longest files of this run (seconds each held its place; keep test/schedule.ts in step):\n',
  );
  for (const { file, seconds } of slowest) process.stdout.write(`${seconds.toFixed(1).padStart(8)}  ${file}\n`);
});

// Runs test files, each in a process of its own, a few at a time from one queue shared by every pass (embedded PGlite,
// then PostgreSQL), the longest first: `node --test` starts files in name order and one pass after the other, which
// left minute-long files running alone at the end of each pass while the other core waited. Each file's report is
// printed whole when it ends, so two never interleave. Used by scripts/test.ts; `node scripts/run-tests.ts <files or
// globs>` runs any set on PGlite the same way.
import { globSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { Writable } from 'node:stream';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { LONGEST_FIRST } from '../test/schedule.ts';

/** Files at a time: the machine has two cores, and a file waits on its browser, its wallet or PostgreSQL. */
const CONCURRENCY = Number(process.env.TEST_CONCURRENCY ?? 3);
const TIMEOUT_MS = 120_000;
/**
 * A file's process is killed after this long, and the file fails: a test's own timeout does not end a process that
 * a left-open handle keeps alive after its last test, and one such file once held CI until its 90 minutes ran out.
 * The longest file takes about 90 s on a quiet machine.
 */
const FILE_TIMEOUT_MS = 10 * 60_000;
/** Up to this many files, every file's report is shown; beyond, a line a file and the reports of those that fail. */
const FEW = 4;
let showEveryReport = false;
/**
 * PGlite is WebAssembly: V8 compiles it quickly (Liftoff), then again, optimised, on background threads (TurboFan),
 * which a test file's process rarely lives long enough to use. Liftoff alone: the same code, about a core-second less
 * a file, no slower (measured alternately on settlement, placement and fuzz: 4.3 against 5.0 s of CPU, equal wall).
 */
const TEST_PROCESS_FLAGS = ['--liftoff-only'];

/** A set of files run against one database. */
export interface Pass {
  name: string;
  files: string[];
  env: NodeJS.ProcessEnv;
}

interface Outcome {
  pass: string;
  file: string;
  seconds: number;
  /** CPU seconds of its process and everything it started (a browser, a server), when the system tells */
  cpu: number | undefined;
  tests: number;
  failed: number;
}

/** Runs every pass's files from one queue, the longest first; says how each pass went; true if nothing failed. */
export async function runPasses(passes: Pass[]): Promise<boolean> {
  showEveryReport = passes.reduce((sum, pass) => sum + pass.files.length, 0) <= FEW;
  const queue = passes
    .flatMap((pass) => pass.files.map((file) => ({ pass, file })))
    .toSorted((a, b) => rank(a.file) - rank(b.file));
  const total = queue.length;
  process.stdout.write(
    `\n=== ${total} test files (${passes.map((pass) => `${pass.files.length} on ${pass.name}`).join(', ')}), ` +
      `${CONCURRENCY} at a time, the longest first ===\n`,
  );
  const outcomes: Outcome[] = [];
  // what ran before (the build, the static checks) is nobody's file
  cpuSinceLastEnd();
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const outcome = await runFile(job.pass, job.file);
      outcomes.push(outcome);
      const mark = outcome.failed > 0 ? `FAILED (${outcome.failed} of ${outcome.tests})` : `ok (${outcome.tests})`;
      const cpu = outcome.cpu === undefined ? '' : `, CPU ${outcome.cpu.toFixed(1)} s`;
      process.stdout.write(
        `--- [${outcomes.length}/${total}] ${job.file} on ${job.pass.name}: ${mark} in ${outcome.seconds.toFixed(1)} s${cpu}\n`,
      );
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  summarise(passes, outcomes);
  return outcomes.every((outcome) => outcome.failed === 0);
}

/** One file in its own process; its report held and printed whole when it ends (a failing file's only). */
async function runFile(pass: Pass, file: string): Promise<Outcome> {
  const started = performance.now();
  let tests = 0;
  let failed = 0;
  const signal = AbortSignal.timeout(FILE_TIMEOUT_MS);
  const stream = run({ files: [file], env: pass.env, timeout: TIMEOUT_MS, execArgv: TEST_PROCESS_FLAGS, signal });
  stream.on('test:pass', ({ details }) => details.type !== 'suite' && (tests += 1));
  stream.on('test:fail', ({ details }) => {
    if (details.type !== 'suite') tests += 1;
    failed += 1;
  });
  const report = await collect(stream.compose(spec));
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSinceLastEnd();
  const killed = signal.aborted
    ? `(killed after ${FILE_TIMEOUT_MS / 60_000} minutes: its process had not ended; a handle left open, or a test ` +
      `waiting on something that never came)\n`
    : '';
  if (failed > 0 || showEveryReport) process.stdout.write(`\n--- ${file} on ${pass.name} ---\n${killed}${report}`);
  return { pass: pass.name, file, seconds, cpu, tests, failed };
}

/** Clock ticks a second in /proc's figures (USER_HZ, 100 on Linux). */
const TICKS = 100;
let childrenCpuSeen = childrenCpu();

/**
 * The CPU seconds of this runner's children that ended since the last call: a file's process, with the browsers and
 * servers it started and waited for. Read when a file's report ends, just after its process ended; two files ending
 * in the same instant share one figure; a process nobody waited for (a browser's renderers when the browser is killed)
 * is not counted, so a browser file costs more than it says. On two cores, wall time says how long a file waited for
 * a core as much as what it costs: this says what it costs.
 */
function cpuSinceLastEnd(): number | undefined {
  const now = childrenCpu();
  if (now === undefined || childrenCpuSeen === undefined) return undefined;
  const spent = now - childrenCpuSeen;
  childrenCpuSeen = now;
  return spent;
}

/** The user and system CPU seconds of this process's children that ended and were waited for (Linux /proc). */
function childrenCpu(): number | undefined {
  try {
    // the fields after the command's name, from the state (field 3): cutime and cstime are fields 16 and 17
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS;
  } catch {
    return undefined;
  }
}

function collect(readable: NodeJS.ReadableStream): Promise<string> {
  const chunks: string[] = [];
  return new Promise((resolve, reject) => {
    readable
      .pipe(new Writable({ write: (chunk: Buffer | string, _encoding, done) => done(void chunks.push(String(chunk))) }))
      .on('finish', () => resolve(chunks.join('')))
      .on('error', reject);
  });
}

function summarise(passes: Pass[], outcomes: Outcome[]): void {
  for (const pass of passes) {
    const mine = outcomes.filter((outcome) => outcome.pass === pass.name);
    const tests = mine.reduce((sum, outcome) => sum + outcome.tests, 0);
    const failedFiles = mine.filter((outcome) => outcome.failed > 0);
    process.stdout.write(
      `\n=== tests on ${pass.name}: ${mine.length} files, ${tests} tests, ` +
        `${failedFiles.length === 0 ? 'all passed' : `FAILED in ${failedFiles.map((o) => o.file).join(', ')}`} ===\n`,
    );
  }
  const longest = outcomes.toSorted((a, b) => b.seconds - a.seconds).slice(0, 15);
  process.stdout.write('\nThe longest files of this run (seconds; keep test/schedule.ts in step):\n');
  for (const { file, pass, seconds } of longest) {
    process.stdout.write(`${seconds.toFixed(1).padStart(8)}  ${relative(process.cwd(), file)} (${pass})\n`);
  }
  if (outcomes.some((outcome) => outcome.cpu === undefined)) return;
  const cpu = (outcome: Outcome) => outcome.cpu ?? 0;
  const costliest = outcomes.toSorted((a, b) => cpu(b) - cpu(a)).slice(0, 15);
  const all = outcomes.reduce((sum, outcome) => sum + cpu(outcome), 0);
  process.stdout.write(`\nThe files that cost the most CPU (seconds, of ${all.toFixed(0)} s for every file):\n`);
  for (const outcome of costliest) {
    process.stdout.write(
      `${cpu(outcome).toFixed(1).padStart(8)}  ${relative(process.cwd(), outcome.file)} (${outcome.pass})\n`,
    );
  }
}

function rank(file: string): number {
  const index = LONGEST_FIRST.indexOf(file);
  return index === -1 ? LONGEST_FIRST.length : index;
}

/** The files a set of names and globs gives, each once, in name order. */
export function filesOf(patterns: string[]): string[] {
  return [...new Set(patterns.flatMap((pattern) => globSync(pattern)))].sort();
}

if (import.meta.main) {
  const files = filesOf(process.argv.slice(2));
  if (files.length === 0) {
    process.stderr.write('No test file matches; give files or globs, e.g. test/**/*.test.ts.\n');
    process.exit(1);
  }
  const { DATABASE_URL: _notHere, ...env } = process.env;
  process.exit((await runPasses([{ name: 'embedded PGlite', files, env }])) ? 0 : 1);
}

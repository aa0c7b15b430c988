// Where a V8 CPU profile's busy time went (bench/load.ts writes one per timed run with BENCH_PROFILE=<folder>):
// by package or file of ours, then by function, each as a share of the samples that were not idle.
//   node bench/profile-summary.ts <file.cpuprofile> [rows]
// Read with care on a busy machine: the sampler counts wall-clock time, so the wait for a core after a socket write
// shows up under writev and friends (docs/benchmarks.md).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rows = '30'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.ts <file.cpuprofile> [rows]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

/** The package a script belongs to, `node:` for Node's own, or the path of a file of ours. */
function owner(url: string): string {
  if (!url) return '(native)';
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  if (url.startsWith('node:')) return url.split('/')[0]!;
  return url.replace(/^file:\/\/.*?\/(src|bench|test|reference-wallet)\//, '$1/');
}

const SPECIAL = new Set(['(program)', '(garbage collector)']);
const byOwner = new Map<string, number>();
const byFunction = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, index) => {
  const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
  if (functionName === '(idle)') return;
  const time = profile.timeDeltas[index] ?? 0;
  busy += time;
  const where = SPECIAL.has(functionName) ? functionName : owner(url);
  byOwner.set(where, (byOwner.get(where) ?? 0) + time);
  const name = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + time);
});

const share = (time: number) => `${((100 * time) / busy).toFixed(1).padStart(5)}%`;
const top = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(rows));
console.log(`${(busy / 1000).toFixed(0)} ms busy`);
for (const [where, time] of top(byOwner)) console.log(`${share(time)}  ${where}`);
console.log('\nfunctions:');
for (const [name, time] of top(byFunction)) console.log(`${share(time)}  ${name}`);

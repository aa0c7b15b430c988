// The run's shared state: its options, the figures and discrepancies every part adds to, where it is, its time
// bounds, its seeded choices and the refused movements the operator sent again.
import type { Discrepancy } from '../soak-check.ts';
import { Random } from '../soak-support.ts';
import { createFigures } from './figures.ts';
import { readOptions } from './options.ts';

export const opts = readOptions();
export const figures = createFigures(opts);
export const discrepancies: Discrepancy[] = [];
/**
 * Where the run is: its phase (for the progress lines), the settlement actions sent, whether the drain has begun, and
 * how many kills are still to come.
 */
export const progress = { phase: 'setting up', actions: 0, drain: false, killsPending: 0 };
export const started = performance.now();
export const deadline = started + opts.minutes * 60_000;
export const activeUntil = started + opts.minutes * 60_000 * 0.6;
/** Past this, a call that keeps failing gives up: the run is stuck. */
export const hardStop = deadline + 120_000;

const random = new Random(opts.seed);
// Forked in this order, so that a new stream leaves the earlier ones (and older seeds' scenarios) as they were.
export const choices = {
  slips: random.fork(),
  faults: random.fork(),
  kills: random.fork(),
  results: random.fork(),
  decisions: random.fork(),
};
export const say = (line: string) => process.stderr.write(`soak: ${line}\n`);

/** How many times the operator sent each refused movement again, by txId: in the drain and during resettlements. */
export const retries = new Map<string, number>();

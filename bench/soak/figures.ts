// What the run counts: the figures it prints (or --json), by fault mode and by decision, and their starting values.
import type { Discrepancy } from '../soak-check.ts';
import type { Options } from './options.ts';

export const MODES = [
  'status_500',
  'status_503',
  'status_408',
  'status_429',
  'malformed',
  'empty_4xx',
  'wrong_tx_id',
  'wrong_currency',
  'delay',
  'reset',
] as const;
export type Mode = (typeof MODES)[number];

/** What the operator (retry, resolve, cancel) and the casino (redeliver) may send during a resettlement. */
const DECISIONS = ['retry', 'resolve', 'cancel', 'redeliver'] as const;
export type Decision = (typeof DECISIONS)[number];

/** The figures before anything happened. */
export function createFigures(opts: Options) {
  return {
    seed: opts.seed,
    database: process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite',
    wallMs: 0,
    bets: {
      requested: opts.bets,
      sent: 0,
      accepted: 0,
      singles: 0,
      accumulators: 0,
      refused: {} as Record<string, number>,
      /** Slips on a fed market refused for its price or its producer's silence, and sent again: by code. */
      sentAgain: {} as Record<string, number>,
    },
    cashOuts: { full: 0, partial: 0, unavailable: 0 },
    markets: { settled: 0, resettled: 0 },
    movements: {} as Record<string, { movements: number; amount: number }>,
    obligations: {} as Record<string, number>,
    faults: {
      injected: 0,
      appliedBeforeAnswer: 0,
      notHit: 0,
      byMode: Object.fromEntries(MODES.map((mode) => [mode, 0])) as Record<Mode, number>,
    },
    restarts: 0,
    unexpectedExits: 0,
    feed: { ticks: 0, messages: 0, applied: 0, kept: 0, refused: 0, failedTicks: 0, outages: 0, recovered: 0 },
    operator: { resolved: 0, cancelled: 0, retried: 0 },
    redeliveries: 0,
    duringResettlements: {
      /** Resettlements with decisions sent at the same moment, of all resettlements sent. */
      resettlements: 0,
      sent: 0,
      done: 0,
      refused: {} as Record<string, number>,
      /** Answers neither success nor a refusal the race explains: each is a discrepancy. */
      unexpected: 0,
      byAction: Object.fromEntries(DECISIONS.map((action) => [action, { sent: 0, done: 0, refused: {} }])) as Record<
        Decision,
        { sent: number; done: number; refused: Record<string, number> }
      >,
    },
    wallet: { requests: 0, resent: 0 },
    statements: { days: [] as string[], movements: 0 },
    reconcile: 'not run',
    discrepancies: 0,
    discrepancyList: [] as Discrepancy[],
  };
}

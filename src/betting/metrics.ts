import type { Metrics } from '../platform/metrics/metrics.ts';
import { OutcomeMetrics } from '../platform/metrics/outcomes.ts';

/** Placements and cash-outs: each answer counted by outcome (`accepted` or the refusal's code), and timed. */
export class BettingMetrics {
  readonly placements: OutcomeMetrics;
  readonly cashOuts: OutcomeMetrics;

  constructor(metrics: Metrics) {
    this.placements = new OutcomeMetrics(metrics, {
      count: {
        name: 'bookmaker_bet_placements_total',
        help: "Bet placements answered, by outcome: accepted, or the refusal's error code.",
      },
      duration: {
        name: 'bookmaker_bet_placement_duration_seconds',
        help: 'Time to answer a bet placement, the stake debit at the wallet included, by result.',
      },
    });
    this.cashOuts = new OutcomeMetrics(metrics, {
      count: {
        name: 'bookmaker_cashouts_total',
        help: "Cash-outs answered, by outcome: accepted, or the refusal's error code.",
      },
      duration: { name: 'bookmaker_cashout_duration_seconds', help: 'Time to answer a cash-out, by result.' },
    });
  }
}

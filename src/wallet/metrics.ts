import type { Clock } from '../platform/clock.ts';
import type { Db } from '../platform/db/database.ts';
import type { Count, Family, Metrics, Timing } from '../platform/metrics/metrics.ts';
import type { WalletEndpoint } from './ledger/movement.ts';
import type { WalletOutcome } from './delivery/answers.ts';
import * as operatorStore from './operator/store.ts';
import * as deliveryStore from './delivery/store.ts';

type CallResult = 'applied' | 'refused' | 'unknown' | 'transport_error';
const CALL_RESULTS: readonly CallResult[] = ['applied', 'refused', 'unknown', 'transport_error'];

/**
 * The wallet error codes of the contract ("Wallet errors"). A wallet may answer any code: others are counted as
 * `other`, so that one casino's wording cannot add series without end.
 */
const CONTRACT_CODES = new Set([
  'insufficient_funds',
  'player_not_found',
  'player_blocked',
  'invalid_signature',
  'duplicate_tx',
  'rolled_back',
]);

/**
 * What an attempt counts as: `applied` or `refused` (the wallet's definite answers); `transport_error` when no
 * answer came (not sent, no connection, no answer in 5 s); `unknown` for an answer that proves nothing (a 5xx,
 * 408, 429, or a body that breaks the contract).
 */
function counted(outcome: WalletOutcome): { result: CallResult; code: string } {
  switch (outcome.outcome) {
    case 'applied':
      return { result: 'applied', code: '' };
    case 'refused':
      return { result: 'refused', code: CONTRACT_CODES.has(outcome.code) ? outcome.code : 'other' };
    case 'not_sent':
      return { result: 'transport_error', code: '' };
    case 'unknown':
      return outcome.status === null ? { result: 'transport_error', code: '' } : { result: 'unknown', code: '' };
  }
}

/**
 * The wallet's metrics: calls to the casinos' wallets and the delivery engine's attempts, counted as they happen;
 * the ledger (obligations by state, the oldest owed movement per tenant, movements held for review) read from the
 * database when scraped, one grouped query each.
 */
export class WalletMetrics {
  readonly #metrics: Metrics;
  readonly #calls: Family<'tenant' | 'endpoint' | 'result' | 'code', Count>;
  readonly #callTimes: Family<'tenant' | 'endpoint', Timing>;
  readonly #deliveries: Record<CallResult, Count>;

  constructor(metrics: Metrics, ledger: { db: Db; clock: Clock }) {
    this.#metrics = metrics;
    this.#calls = metrics.counter(
      'bookmaker_wallet_calls_total',
      "Calls to the casinos' wallets, by tenant, endpoint, result and (refused) the wallet's error code.",
      ['tenant', 'endpoint', 'result', 'code'],
    );
    this.#callTimes = metrics.histogram(
      'bookmaker_wallet_call_duration_seconds',
      "Time a casino's wallet took to answer a call (or to fail), by tenant and endpoint.",
      ['tenant', 'endpoint'],
    );
    const deliveries = metrics.counter(
      'bookmaker_ledger_deliveries_total',
      'Delivery attempts the delivery engine made of money owed, by result.',
      ['result'],
    );
    this.#deliveries = Object.fromEntries(CALL_RESULTS.map((result) => [result, deliveries.of({ result })])) as Record<
      CallResult,
      Count
    >;
    readLedger(metrics, ledger);
  }

  /** One call sent (or refused by the transport) to a tenant's wallet. */
  called(tenantId: string, endpoint: WalletEndpoint, attempt: WalletOutcome & { durationMs: number }): void {
    if (!this.#metrics.recording) return;
    const tenant = this.#metrics.tenant(tenantId);
    this.#calls.of({ tenant, endpoint, ...counted(attempt) }).inc();
    this.#callTimes.of({ tenant, endpoint }).observe(attempt.durationMs / 1000);
  }

  /** One attempt of the delivery engine. */
  delivered(attempt: WalletOutcome): void {
    this.#deliveries[counted(attempt).result].inc();
  }
}

/**
 * The ledger as the scrape finds it. Only the states that wait are gauged, each read through its partial index so a
 * scrape costs the backlog, not the ledger (which only grows): `pending` (owed, waiting for delivery) and `held`
 * (waiting for an operator). Final states are counted as they happen (bookmaker_ledger_deliveries_total); a stake
 * debit is `sending` for its one call only, and placements have metrics of their own.
 */
function readLedger(metrics: Metrics, { db, clock }: { db: Db; clock: Clock }): void {
  const total = (rows: Array<{ count: number }>) => rows.reduce((sum, row) => sum + row.count, 0);
  metrics.gaugeAtScrape(
    'bookmaker_ledger_obligations',
    'Obligations waiting, by state: pending (owed, waiting for delivery) and held (waiting for an operator).',
    ['state'],
    async (report) => {
      const [owed, held] = await Promise.all([deliveryStore.owedPerTenant(db), operatorStore.heldPerTenant(db)]);
      report({ state: 'pending' }, total(owed));
      report({ state: 'held' }, total(held));
    },
  );
  metrics.gaugeAtScrape(
    'bookmaker_ledger_oldest_pending_seconds',
    'Per tenant, the age of the oldest movement owed and waiting for delivery (absent when none is).',
    ['tenant'],
    async (report) => {
      const ages = new Map<string, number>();
      for (const row of await deliveryStore.owedPerTenant(db)) {
        const tenant = metrics.tenant(row.tenant_id);
        const age = Math.max(0, (clock.now().getTime() - new Date(row.oldest).getTime()) / 1000);
        ages.set(tenant, Math.max(ages.get(tenant) ?? 0, age));
      }
      for (const [tenant, age] of ages) report({ tenant }, age);
    },
  );
  metrics.gaugeAtScrape(
    'bookmaker_ledger_held_for_review',
    'Obligations held for review: automatic delivery stopped until an operator decides.',
    [],
    async (report) => report({}, total(await operatorStore.heldPerTenant(db))),
  );
}

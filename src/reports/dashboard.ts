import type { Clock } from '../platform/clock.ts';
import type { TenantService } from '../tenants/service.ts';
import type { ObligationReview } from '../wallet/operator/workspace.ts';
import { add, zero } from './figures.ts';
import type { CurrencyFigures, Dashboard, GgrFigures } from './schemas.ts';

const DAY_MS = 86_400_000;
const SECOND_MS = 1000;

type PlatformDashboardDeps = { clock: Clock; review: ObligationReview; tenants: TenantService };

/**
 * The platform administrators' home: money confirmed today and this week per currency (the GGR report's figures, so
 * the two agree), movements held for review per tenant, each tenant's wallet health over the last 24 hours from the
 * wallet call log, and the delivery backlog. Every figure is read from the wallet domain's tables through its
 * workspace (review.ts); the periods come from the clock.
 */
export class PlatformDashboard {
  readonly #deps: PlatformDashboardDeps;

  constructor(deps: PlatformDashboardDeps) {
    this.#deps = deps;
  }

  async read(): Promise<Dashboard> {
    const now = this.#deps.clock.now();
    const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
    const tomorrow = new Date(today.getTime() + DAY_MS);
    // ISO weeks start on Monday: getUTCDay() is 0 on Sunday, 1 on Monday.
    const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY_MS);
    const dayAgo = new Date(now.getTime() - DAY_MS);

    const confirmed = await this.#deps.review.confirmedTotalsOfTenants(monday, tomorrow);
    const held = await this.#deps.review.heldPerTenant();
    const calls = await this.#deps.review.callFigures(dayAgo, now);
    const backlog = await this.#deps.review.deliveryBacklog();
    const tenants = await this.#tenantsNamed([
      ...confirmed.map((row) => row.tenant_id),
      ...held.map((row) => row.tenant_id),
      ...calls.map((row) => row.tenant_id),
    ]);

    const todayText = today.toISOString().slice(0, 10);
    // Each tenant's money in its own currency, added up per currency: never across currencies.
    const figures = (rows: typeof confirmed): CurrencyFigures[] => {
      const byCurrency = new Map<string, GgrFigures>();
      for (const row of rows) {
        const currency = tenants.get(row.tenant_id)!.currency;
        const entry = byCurrency.get(currency) ?? zero();
        add(entry, row);
        byCurrency.set(currency, entry);
      }
      return [...byCurrency]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, entry]) => ({ currency, ...entry }));
    };

    return {
      at: now.toISOString(),
      today: {
        from: today.toISOString(),
        to: tomorrow.toISOString(),
        currencies: figures(confirmed.filter((row) => row.day === todayText)),
      },
      week: { from: monday.toISOString(), to: tomorrow.toISOString(), currencies: figures(confirmed) },
      held: held.map((row) => ({
        tenantId: row.tenant_id,
        name: tenants.get(row.tenant_id)!.name,
        count: row.count,
        oldestCreatedAt: row.oldest.toISOString(),
      })),
      wallets: {
        from: dayAgo.toISOString(),
        to: now.toISOString(),
        tenants: calls.map((row) => ({
          tenantId: row.tenant_id,
          name: tenants.get(row.tenant_id)!.name,
          calls: row.calls,
          failed: row.failed,
          refused: row.refused,
          errorRate: Math.round((row.failed / row.calls) * 10_000) / 10_000,
          p50Ms: Math.round(row.p50 * 10) / 10,
          p99Ms: Math.round(row.p99 * 10) / 10,
        })),
      },
      delivery: {
        pending: backlog.count,
        oldestCreatedAt: backlog.oldest?.toISOString() ?? null,
        oldestAgeSeconds:
          backlog.oldest === null
            ? null
            : Math.max(0, Math.floor((now.getTime() - backlog.oldest.getTime()) / SECOND_MS)),
      },
    };
  }

  async #tenantsNamed(ids: string[]) {
    const unique = [...new Set(ids)];
    return new Map(await Promise.all(unique.map(async (id) => [id, await this.#deps.tenants.get(id)] as const)));
  }
}

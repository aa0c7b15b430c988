import type { Clock } from '../platform/clock.ts';
import { validationError } from '../platform/errors.ts';
import { targetTenant, tenantScope } from '../platform/http/permissions.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import type { TenantService } from '../tenants/service.ts';
import type { ObligationReview } from '../wallet/operator/workspace.ts';
import { PlatformDashboard } from './dashboard.ts';
import { add, addUp, zero } from './figures.ts';
import {
  MAX_REPORT_DAYS,
  type CurrencyFigures,
  type GgrDay,
  type GgrFigures,
  type GgrQuery,
  type GgrReport,
  type GgrTenantsReport,
} from './schemas.ts';

const DAY_MS = 86_400_000;

type ReportsDeps = { clock: Clock; review: ObligationReview; tenants: TenantService };

/** Reports read money from the ledger (through the operator workspace's figures), never from a copy of it. */
export class Reports {
  readonly #deps: ReportsDeps;
  /** The platform administrators' home. */
  readonly dashboard: PlatformDashboard;

  constructor(deps: ReportsDeps) {
    this.#deps = deps;
    this.dashboard = new PlatformDashboard(deps);
  }

  /**
   * GGR per UTC day: stakes minus what was paid back for them, by the day the wallet confirmed each movement. One
   * tenant (an operator's own, or the one a platform administrator names), or every tenant for a platform
   * administrator who names none, with totals per currency.
   */
  async ggr(call: Pick<StaffCall, 'staff'>, query: GgrQuery): Promise<GgrReport | GgrTenantsReport> {
    const all = tenantScope(call.staff) === null && query.tenantId === undefined;
    const tenantId = all ? null : targetTenant(call.staff, query.tenantId);
    const tenant = tenantId === null ? null : await this.#deps.tenants.get(tenantId);
    const from = utcDay('from', query.from);
    const to = utcDay('to', query.to);
    const count = (to.getTime() - from.getTime()) / DAY_MS + 1;
    if (count < 1) throw validationError('to', '`to` is a day on or after `from`.');
    if (count > MAX_REPORT_DAYS) throw validationError('to', `At most ${MAX_REPORT_DAYS} days per report.`);
    const end = new Date(to.getTime() + DAY_MS);
    if (tenant) {
      const rows = await this.#deps.review.confirmedTotals(tenant.id, from, end);
      return tenantReport(tenant, from, count, rows);
    }
    const rows = await this.#deps.review.confirmedTotalsOfTenants(from, end);
    const tenants: GgrReport[] = [];
    for (const id of [...new Set(rows.map((row) => row.tenant_id))]) {
      const of = rows.filter((row) => row.tenant_id === id);
      tenants.push(tenantReport(await this.#deps.tenants.get(id), from, count, of));
    }
    return { from: query.from, to: query.to, tenants, totals: perCurrency(tenants) };
  }
}

function tenantReport(
  tenant: { id: string; name: string; currency: string },
  from: Date,
  count: number,
  rows: Array<{ day: string; kind: string; endpoint: string; movements: number; amount: number; written_off: number }>,
): GgrReport {
  const days: GgrDay[] = Array.from({ length: count }, (_, index) => ({
    date: new Date(from.getTime() + index * DAY_MS).toISOString().slice(0, 10),
    ...zero(),
  }));
  const byDate = new Map(days.map((day) => [day.date, day]));
  for (const row of rows) add(byDate.get(row.day)!, row);
  const totals = zero();
  for (const day of days) addUp(totals, day);
  return { tenantId: tenant.id, name: tenant.name, currency: tenant.currency, days, totals };
}

/** Tenants' totals added up per currency (never across currencies), by currency. */
function perCurrency(reports: GgrReport[]): CurrencyFigures[] {
  const byCurrency = new Map<string, GgrFigures>();
  for (const report of reports) {
    const entry = byCurrency.get(report.currency) ?? zero();
    addUp(entry, report.totals);
    byCurrency.set(report.currency, entry);
  }
  return [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, entry]) => ({ currency, ...entry }));
}

function utcDay(field: string, text: string): Date {
  const day = new Date(`${text}T00:00:00Z`);
  // Year 0 is a day of JavaScript's calendar but not of the database's.
  if (Number.isNaN(day.getTime()) || day.getUTCFullYear() < 1 || day.toISOString().slice(0, 10) !== text) {
    throw validationError(field, `${text} is not a day of the calendar.`);
  }
  return day;
}

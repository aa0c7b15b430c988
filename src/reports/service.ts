import type { Db } from '../platform/db/database.ts';
import { validationError } from '../platform/errors.ts';
import { targetTenant } from '../platform/http/auth.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import type { TenantService } from '../tenants/service.ts';
import type { Ledger } from '../wallet/ledger.ts';
import { MAX_REPORT_DAYS, type GgrDay, type GgrFigures, type GgrQuery } from './schemas.ts';

const DAY_MS = 86_400_000;

/** Reports read money from the ledger, never from a copy of it. */
export class Reports {
  readonly #db: Db;
  readonly #ledger: Ledger;
  readonly #tenants: TenantService;

  constructor(deps: { db: Db; ledger: Ledger; tenants: TenantService }) {
    this.#db = deps.db;
    this.#ledger = deps.ledger;
    this.#tenants = deps.tenants;
  }

  /** GGR per UTC day: stakes minus what was paid back for them, by the day the wallet confirmed each movement. */
  async ggr(call: Pick<StaffCall, 'staff'>, query: GgrQuery) {
    const tenant = await this.#tenants.get(targetTenant(call.staff, query.tenantId));
    const from = utcDay('from', query.from);
    const to = utcDay('to', query.to);
    const count = (to.getTime() - from.getTime()) / DAY_MS + 1;
    if (count < 1) throw validationError('to', '`to` is a day on or after `from`.');
    if (count > MAX_REPORT_DAYS) throw validationError('to', `At most ${MAX_REPORT_DAYS} days per report.`);
    const rows = await this.#ledger.confirmedTotals(this.#db, tenant.id, from, new Date(to.getTime() + DAY_MS));
    const days: GgrDay[] = Array.from({ length: count }, (_, index) => ({
      date: new Date(from.getTime() + index * DAY_MS).toISOString().slice(0, 10),
      ...zero(),
    }));
    const byDate = new Map(days.map((day) => [day.date, day]));
    for (const row of rows) add(byDate.get(row.day)!, row);
    for (const day of days) day.ggr = ggrOf(day);
    const totals = zero();
    for (const day of days) for (const key of Object.keys(totals) as Array<keyof GgrFigures>) totals[key] += day[key];
    return { tenantId: tenant.id, currency: tenant.currency, days, totals };
  }
}

function zero(): GgrFigures {
  return { bets: 0, stakes: 0, payouts: 0, refunds: 0, cashouts: 0, corrections: 0, ggr: 0, adjustments: 0 };
}

/** Which column each confirmed movement adds to; rollbacks belong to stakes that never counted. */
function add(day: GgrFigures, row: { kind: string; endpoint: string; movements: number; amount: number }): void {
  const signed = row.endpoint === 'debit' ? -row.amount : row.amount;
  switch (row.kind) {
    case 'bet':
      day.bets += row.movements;
      day.stakes += row.amount;
      return;
    case 'payout':
      day.payouts += row.amount;
      return;
    case 'refund':
      day.refunds += row.amount;
      return;
    case 'cashout':
      day.cashouts += row.amount;
      return;
    case 'resettle':
      day.corrections += signed;
      return;
    case 'adjustment':
      day.adjustments += signed;
      return;
  }
}

function ggrOf(day: GgrFigures): number {
  return day.stakes - day.payouts - day.refunds - day.cashouts - day.corrections;
}

function utcDay(field: string, text: string): Date {
  const day = new Date(`${text}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) {
    throw validationError(field, `${text} is not a day of the calendar.`);
  }
  return day;
}

import { toCsv } from '../platform/http/csv.ts';
import type { GgrFigures, GgrReport, GgrTenantsReport } from './schemas.ts';

/** The figure columns, in the order of the JSON report. */
const FIGURES: Array<keyof GgrFigures> = [
  'bets',
  'stakes',
  'payouts',
  'refunds',
  'cashouts',
  'corrections',
  'ggr',
  'adjustments',
  'writtenOff',
];
const HEADER = ['tenantId', 'currency', 'date', ...FIGURES];

/**
 * The GGR report as CSV (platform/http/csv.ts): one line per tenant and day, then the tenant's `total` line; for
 * the every-tenant report, a `total` line per currency after them, with an empty tenantId. Amounts are integers in
 * minor units (negative ones with a minus sign), as in the JSON report.
 */
export function ggrCsv(report: GgrReport | GgrTenantsReport): string {
  const tenants = 'tenants' in report ? report.tenants : [report];
  const lines = [HEADER];
  for (const tenant of tenants) {
    for (const day of tenant.days) lines.push([tenant.tenantId, tenant.currency, day.date, ...numbers(day)]);
    lines.push([tenant.tenantId, tenant.currency, 'total', ...numbers(tenant.totals)]);
  }
  if ('tenants' in report) {
    for (const total of report.totals) lines.push(['', total.currency, 'total', ...numbers(total)]);
  }
  return toCsv(lines);
}

/** The file name a browser saves the report under: the tenant (or all tenants) and the days. */
export function ggrFileName(report: GgrReport | GgrTenantsReport, query: { from: string; to: string }): string {
  const who = 'tenants' in report ? 'all-tenants' : report.tenantId.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `ggr-${who}-${query.from}-to-${query.to}.csv`;
}

function numbers(figures: GgrFigures): string[] {
  return FIGURES.map((key) => String(figures[key]));
}

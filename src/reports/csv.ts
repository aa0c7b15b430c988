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
];
const HEADER = ['tenantId', 'currency', 'date', ...FIGURES];

/**
 * The GGR report as CSV (RFC 4180: a header line, CRLF line ends, fields quoted only when they must be): one line
 * per tenant and day, then the tenant's `total` line; for the every-tenant report, a `total` line per currency after
 * them, with an empty tenantId. Amounts are integers in minor units (negative ones with a minus sign), as in the JSON
 * report. No field is text a person typed (generated ids, currency codes, dates, integers); a field that would still
 * start a spreadsheet formula is neutralised with a leading apostrophe, as the audit export does.
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
  return lines.map((fields) => `${fields.map(field).join(',')}\r\n`).join('');
}

/** The file name a browser saves the report under: the tenant (or all tenants) and the days. */
export function ggrFileName(report: GgrReport | GgrTenantsReport, query: { from: string; to: string }): string {
  const who = 'tenants' in report ? 'all-tenants' : report.tenantId.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `ggr-${who}-${query.from}-to-${query.to}.csv`;
}

function numbers(figures: GgrFigures): string[] {
  return FIGURES.map((key) => String(figures[key]));
}

function field(text: string): string {
  const safe = /^[=+@\t\r]|^-(?![0-9]+$)/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

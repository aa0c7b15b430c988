import { Type, type Static } from 'typebox';
import { platformErrors } from '../platform/errors.ts';

/** The longest report: a year and a day (a leap year, both ends included). */
export const MAX_REPORT_DAYS = 366;
/** The formats the GGR report is given in; see ggrSchema. */
const REPORT_FORMATS = ['json', 'csv'] as const;

const Day = (description = 'a UTC day, YYYY-MM-DD') =>
  Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description });
const Money = (description: string) => Type.Integer({ description });
const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const GgrQuery = Type.Object(
  {
    from: Day('the first UTC day, YYYY-MM-DD'),
    to: Day('the last UTC day included, YYYY-MM-DD'),
    tenantId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'one tenant; platform administrators may leave it out for every tenant, operators get their own',
      }),
    ),
    format: Type.Optional(
      Type.Enum(REPORT_FORMATS, {
        description:
          'csv: the same report as a CSV file (also when format is left out and the Accept header names text/csv ' +
          'and not application/json); json by default',
      }),
    ),
  },
  { additionalProperties: false },
);
export type GgrQuery = Static<typeof GgrQuery>;

const figures = {
  bets: Type.Integer({ description: 'stake debits the wallet confirmed that day (accepted bets)' }),
  stakes: Money('sum of those stakes'),
  payouts: Money('initial payout credits confirmed that day (0 for lost bets)'),
  refunds: Money('refund credits of void bets confirmed that day'),
  cashouts: Money('cash-out credits confirmed that day, full and partial'),
  corrections: Money('resettlement credits minus resettlement debits confirmed that day'),
  ggr: Money('stakes - payouts - refunds - cashouts - corrections'),
  adjustments: Money("operators' manual credits minus debits confirmed that day; not part of GGR"),
  writtenOff: Money(
    'debits owed by players (corrections, adjustments) an operator resolved in part that day: the part not ' +
      'collected. Corrections and adjustments already count only what was collected',
  ),
};
export const GgrDay = Type.Object({ date: Day(), ...figures });
export type GgrDay = Static<typeof GgrDay>;
export type GgrFigures = Omit<GgrDay, 'date'>;
const CurrencyFigures = Type.Object({ currency: Type.String(), ...figures });
export type CurrencyFigures = Static<typeof CurrencyFigures>;

const GgrReport = Type.Object({
  tenantId: Type.String(),
  name: Type.String({ description: "the tenant's name" }),
  currency: Type.String(),
  days: Type.Array(GgrDay, { description: 'every day from `from` to `to`, in order, zeros included' }),
  totals: Type.Object(figures),
});
export type GgrReport = Static<typeof GgrReport>;

const GgrTenantsReport = Type.Object(
  {
    from: Day(),
    to: Day(),
    tenants: Type.Array(GgrReport, {
      description: 'each tenant with a movement confirmed in the period, by tenant id, in its own currency',
    }),
    totals: Type.Array(CurrencyFigures, {
      description: 'the tenants added up per currency, by currency; never across currencies',
    }),
  },
  { description: 'every tenant: platform administrators who leave tenantId out' },
);
export type GgrTenantsReport = Static<typeof GgrTenantsReport>;

export const ggrSchema = {
  tags: ['admin: reports'],
  operationId: 'ggrReport',
  summary: 'Gross gaming revenue per UTC day, from the money the wallet confirmed; one tenant or all, JSON or CSV',
  description: [
    'Every figure counts movements by the UTC day the wallet confirmed them (or an operator resolved them),',
    'in minor units of the tenant currency: the same ledger the wallet calls come from, so the report and the',
    'wallets agree. A stake whose outcome was unknown and was rolled back counts in neither stakes nor payouts.',
    'Operators get their own tenant; platform administrators the tenant they name, or every tenant with totals per',
    'currency. With format=csv (or Accept: text/csv) the same report is a CSV attachment: a header line, one line',
    'per tenant and day, a `total` line per tenant, and for every tenant a `total` line per currency with an empty',
    'tenantId; CRLF line ends, amounts in minor units.',
  ].join(' '),
  querystring: GgrQuery,
  response: {
    200: {
      description: 'the report',
      content: {
        'application/json': { schema: Type.Union([GgrReport, GgrTenantsReport]) },
        'text/csv': { schema: Type.String({ description: 'the same report as CSV (RFC 4180)' }) },
      },
    },
  },
  errors: [platformErrors.validation, platformErrors.forbidden, platformErrors.not_found],
};

// ---- the platform dashboard ----

const Period = (description: string) =>
  Type.Object(
    {
      from: Type.String({ format: 'date-time', description: 'its start, included' }),
      to: Type.String({ format: 'date-time', description: 'its end, excluded' }),
      currencies: Type.Array(CurrencyFigures, {
        description: 'the GGR figures of every tenant added up per currency, by currency (currencies with money only)',
      }),
    },
    { description },
  );

const Dashboard = Type.Object({
  at: Timestamp,
  today: Period('the UTC day so far: money confirmed today'),
  week: Period('the ISO week so far (from Monday 00:00 UTC): money confirmed this week'),
  held: Type.Array(
    Type.Object({
      tenantId: Type.String(),
      name: Type.String(),
      count: Type.Integer({ description: 'movements held for review' }),
      oldestCreatedAt: Timestamp,
    }),
    { description: 'tenants with movements held for review now, by tenant id' },
  ),
  wallets: Type.Object(
    {
      from: Timestamp,
      to: Timestamp,
      tenants: Type.Array(
        Type.Object({
          tenantId: Type.String(),
          name: Type.String(),
          calls: Type.Integer({ description: 'calls to the wallet (balance reads and movements, every attempt)' }),
          failed: Type.Integer({
            description: 'calls with no usable answer: timeouts, 5xx, unreadable answers, refused addresses',
          }),
          refused: Type.Integer({ description: 'calls the wallet answered with a refusal (insufficient funds, …)' }),
          errorRate: Type.Number({ description: 'failed / calls, 4 decimals' }),
          p50Ms: Type.Number({ description: 'median call duration, ms (interpolated, 1 decimal)' }),
          p99Ms: Type.Number({ description: '99th percentile of the call durations, ms (interpolated, 1 decimal)' }),
        }),
        { description: 'tenants whose wallets were called in the period, by tenant id' },
      ),
    },
    { description: 'the wallet call log of the last 24 hours' },
  ),
  delivery: Type.Object(
    {
      pending: Type.Integer({ description: 'movements owed and waiting for delivery (retries included)' }),
      oldestCreatedAt: Nullable(Timestamp),
      oldestAgeSeconds: Nullable(Type.Integer({ description: 'how long the oldest has been owed' })),
    },
    { description: 'the delivery backlog now, every tenant' },
  ),
});
export type Dashboard = Static<typeof Dashboard>;

export const dashboardSchema = {
  tags: ['admin: reports'],
  operationId: 'platformDashboard',
  summary: "The platform's home: money today and this week per currency, held movements, wallet health, backlog",
  response: { 200: Dashboard },
};

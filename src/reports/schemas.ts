import { Type, type Static } from 'typebox';
import { platformErrors } from '../platform/errors.ts';

/** The longest report: a year and a day (a leap year, both ends included). */
export const MAX_REPORT_DAYS = 366;

const Day = (description = 'a UTC day, YYYY-MM-DD') =>
  Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description });
const Money = (description: string) => Type.Integer({ description });

export const GgrQuery = Type.Object(
  {
    from: Day('the first UTC day, YYYY-MM-DD'),
    to: Day('the last UTC day included, YYYY-MM-DD'),
    tenantId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'platform administrators name the tenant' }),
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
};
export const GgrDay = Type.Object({ date: Day(), ...figures });
export type GgrDay = Static<typeof GgrDay>;
export type GgrFigures = Omit<GgrDay, 'date'>;

const GgrReport = Type.Object({
  tenantId: Type.String(),
  currency: Type.String(),
  days: Type.Array(GgrDay, { description: 'every day from `from` to `to`, in order, zeros included' }),
  totals: Type.Object(figures),
});

export const ggrSchema = {
  tags: ['admin: reports'],
  operationId: 'ggrReport',
  summary: 'Gross gaming revenue per UTC day, from the money the wallet confirmed',
  description: [
    'Every figure counts movements by the UTC day the wallet confirmed them (or an operator resolved them),',
    'in minor units of the tenant currency: the same ledger the wallet calls come from, so the report and the',
    'wallets agree. A stake whose outcome was unknown and was rolled back counts in neither stakes nor payouts.',
  ].join(' '),
  querystring: GgrQuery,
  response: { 200: GgrReport },
  errors: [platformErrors.validation, platformErrors.forbidden, platformErrors.not_found],
};

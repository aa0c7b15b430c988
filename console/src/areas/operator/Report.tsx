import { useState } from 'preact/hooks';
import { call, callText, type ApiResponse } from '../../api.ts';
import { count, money, utcDay } from '../../format.ts';
import { t } from '../../messages.ts';
import { place, setQuery } from '../../router.ts';
import { session } from '../../session.ts';
import { useValue } from '../../store.ts';
import { download } from '../../ui/download.ts';
import { useLoad } from '../../ui/load.ts';
import { Empty, Failure, Field, FormError, Loading, Page, ScrollingTable } from '../../ui/ui.tsx';

type Answer = ApiResponse<'ggrReport'>;
type TenantReport = Extract<Answer, { days: unknown }>;
type Figures = TenantReport['totals'];

const DAY_MS = 24 * 3600 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** GGR per UTC day: a chart, the table, a CSV export; platform administrators see every tenant with totals. */
export function Report() {
  const { query } = useValue(place);
  const { staff } = useValue(session)!;
  const platform = staff.role === 'platform_admin';
  const staffTenant = staff.tenantId ?? undefined;
  const today = new Date();
  // the last seven days by default: a month of mostly empty days said little to a new casino
  const from = query.get('from') ?? isoDay(new Date(today.getTime() - 6 * DAY_MS));
  const to = query.get('to') ?? isoDay(today);
  const tenantId = platform ? (query.get('tenant') ?? undefined) : undefined;
  const [form, setForm] = useState({ from, to, tenant: tenantId ?? '' });
  const [error, setError] = useState<Error | null>(null);
  const filter = { from, to, tenantId };
  const loaded = useLoad(
    (signal) => call('ggrReport', 'GET', '/api/v1/admin/reports/ggr', { query: filter, signal }),
    JSON.stringify(filter),
  );
  async function exportCsv() {
    setError(null);
    try {
      const csv = await callText('/api/v1/admin/reports/ggr', { ...filter, format: 'csv' });
      // an operator's file is named after their tenant, a platform administrator's after the one chosen (or all)
      download(`ggr-${tenantId ?? staffTenant ?? 'all'}-${from}-${to}.csv`, csv);
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const reports: TenantReport[] = !loaded.data ? [] : 'days' in loaded.data ? [loaded.data] : loaded.data.tenants;
  return (
    <Page
      title={t.report.title}
      actions={
        <button type="button" class="button" onClick={() => void exportCsv()} aria-describedby="csv-units">
          {t.report.exportCsv}
        </button>
      }
    >
      <p class="muted">{t.report.intro}</p>
      <p class="muted small" id="csv-units">
        {t.report.csvUnits(money(1234, 'BRL'))}
      </p>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery({ from: form.from, to: form.to, tenant: form.tenant.trim() || undefined });
        }}
      >
        <Field label={t.report.from}>
          {({ id }) => (
            <input
              id={id}
              type="date"
              required
              value={form.from}
              onInput={(e) => setForm({ ...form, from: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label={t.report.to}>
          {({ id }) => (
            <input
              id={id}
              type="date"
              required
              value={form.to}
              onInput={(e) => setForm({ ...form, to: e.currentTarget.value })}
            />
          )}
        </Field>
        {platform && (
          <Field label={t.tenant.label} hint={t.report.tenantHint}>
            {({ id, describedBy }) => (
              <input
                id={id}
                maxLength={64}
                aria-describedby={describedBy}
                value={form.tenant}
                onInput={(e) => setForm({ ...form, tenant: e.currentTarget.value })}
              />
            )}
          </Field>
        )}
        <button type="submit" class="button button-primary">
          {t.report.show}
        </button>
      </form>
      <FormError error={error} />
      {loaded.state === 'failed' ? (
        <Failure error={loaded.error} retry={loaded.reload} />
      ) : !loaded.data ? (
        <Loading />
      ) : reports.length === 0 ? (
        <Empty>{t.report.empty}</Empty>
      ) : (
        <>
          {reports.map((report) => (
            <TenantSection report={report} key={report.tenantId} />
          ))}
          {'tenants' in loaded.data && <Totals totals={loaded.data.totals} />}
        </>
      )}
    </Page>
  );
}

const COLUMNS = [
  'stakes',
  'payouts',
  'refunds',
  'cashouts',
  'corrections',
  'ggr',
  'adjustments',
  'writtenOff',
] as const;

function TenantSection(props: { report: TenantReport }) {
  const { report } = props;
  const headingId = `report-${report.tenantId}`;
  return (
    <section class="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {report.name} · {report.currency} <span class="muted small">{report.tenantId}</span>
      </h2>
      <Chart report={report} />
      <ScrollingTable label={t.report.caption(report.name)}>
        <table class="table">
          <caption class="visually-hidden">{t.report.caption(report.name)}</caption>
          <FiguresHead first={t.report.day} />
          <tbody>
            {report.days.map((day) => (
              <Row label={utcDay(day.date)} figures={day} currency={report.currency} key={day.date} />
            ))}
            <Row label={t.report.total} figures={report.totals} currency={report.currency} strong />
          </tbody>
        </table>
      </ScrollingTable>
    </section>
  );
}

function Row(props: { label: string; figures: Figures; currency: string; strong?: boolean }) {
  return (
    <tr class={props.strong ? 'total' : undefined}>
      <th scope="row" data-label={t.report.day}>
        {props.label}
      </th>
      <td class="numeric" data-label={t.report.bets}>
        {count(props.figures.bets)}
      </td>
      {COLUMNS.map((column) => (
        <td class="numeric" data-label={t.report[column]} key={column}>
          {money(props.figures[column], props.currency)}
        </td>
      ))}
    </tr>
  );
}

/** GGR per day as bars above (won by the book) or below (lost) a zero line; the table holds the numbers. */
function Chart(props: { report: TenantReport }) {
  const { days, currency, name } = props.report;
  const largest = Math.max(1, ...days.map((day) => Math.abs(day.ggr)));
  const width = Math.max(days.length * 12, 120);
  const height = 120;
  const middle = height / 2;
  return (
    <figure class="chart-figure">
      <svg
        class="chart"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={t.report.chart(name, currency)}
        preserveAspectRatio="none"
      >
        <line x1={0} x2={width} y1={middle} y2={middle} class="chart-axis" />
        {days.map((day, index) => {
          const size = (Math.abs(day.ggr) / largest) * (middle - 4);
          return (
            <rect
              key={day.date}
              x={index * 12 + 2}
              width={8}
              y={day.ggr >= 0 ? middle - size : middle}
              height={Math.max(size, day.ggr === 0 ? 0 : 1)}
              class={day.ggr >= 0 ? 'chart-up' : 'chart-down'}
            >
              <title>
                {utcDay(day.date)}: {money(day.ggr, currency)}
              </title>
            </rect>
          );
        })}
      </svg>
      <figcaption class="muted small">
        {t.report.chartScale(
          utcDay(days[0]!.date),
          utcDay(days.at(-1)!.date),
          money(largest === 1 ? 0 : largest, currency),
        )}
      </figcaption>
    </figure>
  );
}

function Totals(props: { totals: Array<Figures & { currency: string }> }) {
  return (
    <section class="panel" aria-labelledby="report-totals">
      <h2 id="report-totals">{t.report.totals}</h2>
      <ScrollingTable label={t.report.totalsCaption}>
        <table class="table">
          <caption class="visually-hidden">{t.report.totalsCaption}</caption>
          <FiguresHead first={t.report.currency} />
          <tbody>
            {props.totals.map((total) => (
              <Row label={total.currency} figures={total} currency={total.currency} key={total.currency} />
            ))}
          </tbody>
        </table>
      </ScrollingTable>
    </section>
  );
}

/** The columns of every figures table: what each line is (a day, a currency), then the figures. */
function FiguresHead(props: { first: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">{props.first}</th>
        <th scope="col" class="numeric">
          {t.report.bets}
        </th>
        {COLUMNS.map((column) => (
          <th scope="col" class="numeric" key={column}>
            {t.report[column]}
          </th>
        ))}
      </tr>
    </thead>
  );
}

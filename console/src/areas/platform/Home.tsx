import type { ComponentChild } from 'preact';
import { call, type ApiResponse } from '../../api.ts';
import { count, dateTime, milliseconds, money, percent } from '../../format.ts';
import { t } from '../../messages.ts';
import { href } from '../../router.ts';
import { useLoad } from '../../ui/load.ts';
import { Empty, Failure, Loading, Page, ScrollingTable } from '../../ui/ui.tsx';

type Dashboard = ApiResponse<'platformDashboard'>;
type Period = Dashboard['today'];

/** The platform administrator's morning: money today and this week, what waits for review, wallet health. */
export function Home() {
  const loaded = useLoad((signal) => call('platformDashboard', 'GET', '/api/v1/admin/dashboard', { signal }), 'home');
  if (loaded.state === 'failed' && !loaded.data) return <Failure error={loaded.error} retry={loaded.reload} />;
  if (!loaded.data) return <Loading />;
  const dashboard = loaded.data;
  return (
    <Page title={t.home.title}>
      {/* one under the other: every part of GGR is a column, too many for two side by side */}
      <Money title={t.home.today} period={dashboard.today} />
      <Money title={t.home.week} period={dashboard.week} />
      <section class="panel" aria-labelledby="home-backlog">
        <h2 id="home-backlog">{t.home.backlog}</h2>
        <p>
          {t.home.pending(count(dashboard.delivery.pending))}
          {dashboard.delivery.oldestCreatedAt
            ? `, ${t.home.oldestOwed(dateTime(dashboard.delivery.oldestCreatedAt))}`
            : ''}
        </p>
      </section>
      <section class="panel" aria-labelledby="home-held">
        <h2 id="home-held">{t.home.held}</h2>
        {dashboard.held.length === 0 ? (
          <Empty>{t.home.heldNone}</Empty>
        ) : (
          <table class="table">
            <caption class="visually-hidden">{t.home.heldCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.home.tenant}</th>
                <th scope="col" class="numeric">
                  {t.home.heldCount}
                </th>
                <th scope="col">{t.home.oldest}</th>
              </tr>
            </thead>
            <tbody>
              {dashboard.held.map((row) => (
                <tr key={row.tenantId}>
                  <td data-label={t.home.tenant}>
                    <a href={href('/workspace', { tenant: row.tenantId, state: 'held' })}>{row.name}</a>
                  </td>
                  <td class="numeric" data-label={t.home.heldCount}>
                    {count(row.count)}
                  </td>
                  <td data-label={t.home.oldest}>{dateTime(row.oldestCreatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="panel" aria-labelledby="home-wallets">
        <h2 id="home-wallets">{t.home.wallets}</h2>
        {dashboard.wallets.tenants.length === 0 ? (
          <Empty>{t.home.walletsNone}</Empty>
        ) : (
          <table class="table">
            <caption class="visually-hidden">{t.home.walletsCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.home.tenant}</th>
                {[t.home.calls, t.home.errorRate, t.home.refused, t.home.p50, t.home.p99].map((header) => (
                  <th scope="col" class="numeric" key={header}>
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {dashboard.wallets.tenants.map((row) => (
                <tr key={row.tenantId} class={row.errorRate >= 0.05 ? 'alarm' : undefined}>
                  <td data-label={t.home.tenant}>{row.name}</td>
                  <td class="numeric" data-label={t.home.calls}>
                    {count(row.calls)}
                  </td>
                  <td class="numeric" data-label={t.home.errorRate}>
                    {percent(row.errorRate)}
                  </td>
                  <td class="numeric" data-label={t.home.refused}>
                    {count(row.refused)}
                  </td>
                  <td class="numeric" data-label={t.home.p50}>
                    {milliseconds(row.p50Ms)}
                  </td>
                  <td class="numeric" data-label={t.home.p99}>
                    {milliseconds(row.p99Ms)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Page>
  );
}

type Figures = Period['currencies'][number];
type Column = Exclude<keyof Figures, 'currency'>;
/**
 * Every part of GGR, so that it adds up on screen: stakes less payouts, refunds, cash-outs and corrections. A column's
 * header is the report's word for it (t.report), read when the table is drawn so that it follows the language.
 */
const COLUMNS: Array<{ name: Column; cell: (figures: Figures) => ComponentChild }> = [
  { name: 'bets', cell: (figures) => count(figures.bets) },
  { name: 'stakes', cell: (figures) => money(figures.stakes, figures.currency) },
  { name: 'payouts', cell: (figures) => money(figures.payouts, figures.currency) },
  { name: 'refunds', cell: (figures) => money(figures.refunds, figures.currency) },
  { name: 'cashouts', cell: (figures) => money(figures.cashouts, figures.currency) },
  { name: 'corrections', cell: (figures) => money(figures.corrections, figures.currency) },
  { name: 'ggr', cell: (figures) => <strong>{money(figures.ggr, figures.currency)}</strong> },
  { name: 'adjustments', cell: (figures) => money(figures.adjustments, figures.currency) },
  { name: 'writtenOff', cell: (figures) => money(figures.writtenOff, figures.currency) },
];

function Money(props: { title: string; period: Period }) {
  const id = `money-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      {props.period.currencies.length === 0 ? (
        <p class="muted">{t.home.noMoney}</p>
      ) : (
        <ScrollingTable class="table-overflow" label={t.home.figuresCaption(props.title)}>
          <table class="table">
            <caption class="visually-hidden">{t.home.figuresCaption(props.title)}</caption>
            <thead>
              <tr>
                <th scope="col">{t.report.currency}</th>
                {COLUMNS.map(({ name }) => (
                  <th scope="col" class="numeric" key={name}>
                    {t.report[name]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.period.currencies.map((figures) => (
                <tr key={figures.currency}>
                  <td data-label={t.report.currency}>{figures.currency}</td>
                  {COLUMNS.map(({ name, cell }) => (
                    <td class="numeric" data-label={t.report[name]} key={name}>
                      {cell(figures)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      )}
    </section>
  );
}

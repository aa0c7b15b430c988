import { useEffect } from 'preact/hooks';
import { call, type ApiResponse } from '../../../api.ts';
import { count, dateTime, money, odds } from '../../../format.ts';
import { t } from '../../../messages.ts';
import { useLoad } from '../../../ui/load.ts';
import { Failure } from '../../../ui/ui.tsx';

type Risk = ApiResponse<'getEventRisk'>;
/** Bets are placed all the time: the view is read again this often while it is open. */
const REFRESH_MS = 5_000;

/**
 * The event's risk, as a trader reads it beside the prices: per outcome the open stakes, what the book would pay and
 * its result if that outcome came in (a loss in red); the largest open bets; the liability limits in use per tenant.
 */
export function RiskPanel(props: { eventId: string }) {
  const loaded = useLoad(
    (signal) =>
      call('getEventRisk', 'GET', `/api/v1/admin/trading/events/${encodeURIComponent(props.eventId)}/risk`, {
        signal,
      }),
    props.eventId,
  );
  const { reload } = loaded;
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  if (loaded.state === 'failed' && !loaded.data) return <Failure error={loaded.error} retry={reload} />;
  const risk = loaded.data;
  return (
    <section class="panel" aria-labelledby="risk-heading" aria-busy={!risk}>
      <div class="panel-head">
        <h2 id="risk-heading">{t.risk.title}</h2>
      </div>
      {risk && risk.currencies.length === 0 && <p class="muted">{t.risk.noBets}</p>}
      {risk?.currencies.map((book) => (
        <div key={book.currency}>
          <p class="muted">{t.risk.stakes(money(book.stakes, book.currency))}</p>
          {book.markets.map((market) => (
            <div class="table-wrap" key={market.marketId}>
              <table class="table">
                <caption>{market.name}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.risk.outcome}</th>
                    <th scope="col" class="numeric">
                      {t.risk.bets}
                    </th>
                    <th scope="col" class="numeric">
                      {t.risk.stakesColumn}
                    </th>
                    <th scope="col" class="numeric">
                      {t.risk.payouts}
                    </th>
                    <th scope="col" class="numeric">
                      {t.risk.bookResult}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {market.selections.map((selection) => (
                    <tr key={selection.selectionId}>
                      <th scope="row">
                        {selection.name} <span class="muted">{odds(selection.odds)}</span>
                      </th>
                      <td class="numeric">{count(selection.bets)}</td>
                      <td class="numeric">{money(selection.stakes, book.currency)}</td>
                      <td class="numeric">{money(selection.payouts, book.currency)}</td>
                      <td class={`numeric ${selection.bookResult < 0 ? 'loss' : ''}`}>
                        {money(selection.bookResult, book.currency)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </div>
      ))}
      {risk && risk.largestBets.length > 0 && <LargestBets risk={risk} />}
      {risk && risk.limits.length > 0 && (
        <>
          <h3>{t.risk.limits}</h3>
          <ul>
            {risk.limits.map((limit) => (
              <li key={limit.tenantId}>
                {limit.tenantId}:{' '}
                {t.risk.eventLimit(money(limit.event.reserved, limit.currency), money(limit.event.max, limit.currency))}
                {limit.busiestSelection &&
                  ` · ${t.risk.selectionLimit(
                    money(limit.busiestSelection.reserved, limit.currency),
                    money(limit.busiestSelection.max, limit.currency),
                  )}`}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function LargestBets(props: { risk: Risk }) {
  return (
    <>
      <h3>{t.risk.largest}</h3>
      <ul>
        {props.risk.largestBets.map((bet) => (
          <li key={bet.betId}>
            {t.risk.largestBet(
              money(bet.stake, bet.currency),
              money(bet.potentialPayout, bet.currency),
              bet.legs,
              dateTime(bet.placedAt),
            )}{' '}
            <span class="muted">
              {bet.betId} · {bet.playerId}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../../api.ts';
import { money, percent } from '../../../format.ts';
import { t } from '../../../messages.ts';
import { Badge, FormError } from '../../../ui/ui.tsx';
import type { Market, TradingEvent } from './event.ts';
import { OddsForm } from './OddsForm.tsx';
import { SettleDialog, type Settling } from './SettleDialog.tsx';

/** The book's margin at a market's odds: Σ 1/odds − 1 (an overround of 5% shows as 5%). */
function margin(market: Pick<Market, 'selections'>): number {
  return market.selections.reduce((sum, selection) => sum + 1 / Number(selection.odds), 0) - 1;
}

/** What a settlement or resettlement did: its version, the bets it changed, the money it owes. */
function settledNote(action: Settling['action'], report: ApiResponse<'settleMarket'>): string {
  const { settled, resettled, reopened } = report.bets;
  const owed = report.owed
    .flatMap(({ currency, credits, debits }) => [
      ...(credits > 0 ? [t.trading.owedCredits(money(credits, currency))] : []),
      ...(debits > 0 ? [t.trading.owedDebits(money(debits, currency))] : []),
    ])
    .join(', ');
  return t.trading.settledNote(action, report.market.settlementVersion, settled + resettled + reopened, owed);
}

/** A market: its status, its margin, its selections' odds, and suspending, closing, voiding or settling it. */
export function MarketPanel(props: {
  market: Market;
  event: Pick<TradingEvent, 'status' | 'score'>;
  changed: () => void;
}) {
  const { market } = props;
  const [settling, setSettling] = useState<Settling | null>(null);
  const [error, setError] = useState<Error | null>(null);
  // what the last settlement or resettlement did, until another action on the market
  const [done, setDone] = useState<{ action: Settling['action']; report: ApiResponse<'settleMarket'> } | null>(null);
  async function change(request: () => Promise<unknown>) {
    setError(null);
    setDone(null);
    try {
      await request();
      props.changed();
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const path = `/api/v1/admin/trading/markets/${market.id}`;
  const setStatus = (status: 'open' | 'suspended' | 'closed') =>
    change(() => call('setMarketStatus', 'PATCH', path, { body: { status } }));
  const setControl = (control: 'feed' | 'trader') =>
    change(() => call('setMarketControl', 'PUT', `${path}/control`, { body: { control } }));
  const settled = market.status === 'settled';
  const headingId = `market-${market.id}`;
  return (
    <section class="panel" aria-labelledby={headingId}>
      <div class="panel-head">
        <h2 id={headingId}>{market.name}</h2>
        <Badge tone={market.status === 'open' ? 'good' : market.status === 'suspended' ? 'warn' : 'neutral'}>
          {t.trading.marketStatuses[market.status]}
        </Badge>
      </div>
      {/* double chance's outcomes overlap (each result wins two of them): Σ 1/odds is no margin there */}
      {market.type !== 'double_chance' && (
        <p class="muted" title={t.trading.marginHint}>
          {t.trading.margin}: {percent(margin(market))}
        </p>
      )}
      {market.producerId && (
        <p class="muted">
          <Badge tone={market.control === 'feed' ? 'good' : 'neutral'}>{t.trading.control[market.control]}</Badge>{' '}
          {market.heldByProducer && <Badge tone="warn">{t.trading.heldByProducer}</Badge>}{' '}
          {t.trading.controlHint(market.producerId)}
        </p>
      )}
      <FormError error={error} />
      <p role="status" class={done ? 'notice' : 'visually-hidden'}>
        {done && settledNote(done.action, done.report)}
      </p>
      <ul class="selections">
        {market.selections.map((selection) => (
          <li key={selection.id}>
            <OddsForm selection={selection} disabled={settled} saved={props.changed} />
          </li>
        ))}
      </ul>
      <div class="form-actions">
        {market.status === 'open' && (
          <button type="button" class="button" onClick={() => void setStatus('suspended')}>
            {t.trading.suspend}
          </button>
        )}
        {market.status === 'suspended' && (
          <button type="button" class="button" onClick={() => void setStatus('open')}>
            {t.trading.reopen}
          </button>
        )}
        {!settled && market.status !== 'closed' && (
          <button type="button" class="button" onClick={() => void setStatus('closed')}>
            {t.trading.close}
          </button>
        )}
        {market.producerId && !settled && (
          <button
            type="button"
            class="button"
            onClick={() => void setControl(market.control === 'feed' ? 'trader' : 'feed')}
          >
            {market.control === 'feed' ? t.trading.takeOver : t.trading.giveBack}
          </button>
        )}
        <button
          type="button"
          class="button"
          onClick={() => setSettling({ action: settled ? 'resettle' : 'settle', voiding: true })}
        >
          {t.trading.voidMarket}
        </button>
        <button
          type="button"
          class="button button-primary"
          onClick={() => setSettling({ action: settled ? 'resettle' : 'settle', voiding: false })}
        >
          {settled ? t.trading.resettle : t.trading.settle}
        </button>
      </div>
      {settling && (
        <SettleDialog
          market={market}
          event={props.event}
          settling={settling}
          onClose={(report) => {
            const action = settling.action;
            setSettling(null);
            if (!report) return;
            setDone({ action, report });
            props.changed();
          }}
        />
      )}
    </section>
  );
}

import { useState } from 'preact/hooks';
import { call } from '../../api.ts';
import { dateTime } from '../../format.ts';
import { t } from '../../messages.ts';
import { useLoad } from '../../ui/load.ts';
import { Failure, Loading, Page } from '../../ui/ui.tsx';
import { EventForm } from './event-page/EventForm.tsx';
import { LiveState } from './event-page/LiveState.tsx';
import { MarketPanel } from './event-page/MarketPanel.tsx';
import { NewMarket } from './event-page/NewMarket.tsx';
import { ResultDialog } from './event-page/ResultDialog.tsx';
import { RiskPanel } from './event-page/RiskPanel.tsx';
import { useEventChanges } from './event-page/changes.ts';
import { EventStatus } from './EventStatus.tsx';

/** An event on the trading desk: its status and score, its markets, their odds, and their settlement. */
export function EventPage(props: { id: string }) {
  const [saved, setSaved] = useState(false);
  const [resulting, setResulting] = useState(false);
  const loaded = useLoad(
    (signal) =>
      call('getTradingEvent', 'GET', `/api/v1/admin/trading/events/${encodeURIComponent(props.id)}`, { signal }),
    props.id,
  );
  useEventChanges(props.id, loaded.reload);
  // Another action on the page (a market, a result) takes the place of "Event saved."
  const changed = () => {
    setSaved(false);
    loaded.reload();
  };
  if (loaded.state === 'failed' && !loaded.data) return <Failure error={loaded.error} retry={loaded.reload} />;
  if (!loaded.data) return <Loading />;
  const event = loaded.data.event;
  return (
    <Page title={`${event.home} – ${event.away}`} actions={<EventStatus status={event.status} />}>
      <p class="muted">
        {event.sport.name} · {event.competition.name} · {dateTime(event.startsAt)}
      </p>
      <LiveState event={event} />
      <EventForm
        event={event}
        saved={() => {
          // the form is drawn anew from the saved event: it says so once it shows it, not before
          setSaved(false);
          void loaded.reloaded().then(() => setSaved(true));
        }}
        justSaved={saved}
        key={JSON.stringify([event.startsAt, event.status, event.score, event.period, event.clock])}
      />
      <div class="form-actions">
        <NewMarket eventId={event.id} event={event} created={changed} />
        {event.markets.length > 0 && event.status !== 'cancelled' && (
          <button type="button" class="button" onClick={() => setResulting(true)}>
            {t.trading.resultButton}
          </button>
        )}
      </div>
      {resulting && (
        <ResultDialog
          event={event}
          onClose={(done) => {
            setResulting(false);
            if (done) changed();
          }}
        />
      )}
      {event.markets.length === 0 && <p class="state state-empty">{t.trading.noMarkets}</p>}
      {event.markets.map((market) => (
        <MarketPanel market={market} event={event} changed={changed} key={market.id} />
      ))}
      {event.markets.length > 0 && <RiskPanel eventId={event.id} />}
    </Page>
  );
}

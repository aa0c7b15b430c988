import { useEffect, useState } from 'preact/hooks';
import { matchClock } from '../../../format.ts';
import { t } from '../../../messages.ts';
import type { TradingEvent } from './event.ts';

/** The event's live state as it stands: score, period and a clock that ticks while it runs. */
export function LiveState(props: { event: TradingEvent }) {
  const { score, period, clock } = props.event;
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!clock?.running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [clock]);
  const parts = [
    score ? `${score.home} – ${score.away}` : '',
    period ? t.trading.periods[period] : '',
    matchClock(clock, now),
  ].filter(Boolean);
  return parts.length ? <p class="live-state">{parts.join(' · ')}</p> : null;
}

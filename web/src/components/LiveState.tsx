import { useEffect, useRef, useState } from 'preact/hooks';
import { localeStore, t } from '../i18n/index.ts';
import { periodLabel } from '../labels.ts';
import { clockReading, clockSeconds } from '../../../ui-shared/live-clock.ts';
import { createStore, useStore } from '../store.ts';
import type { EventHeader } from '../types.ts';

/**
 * One timer for every running clock on the page: a tick a second while at least one is shown. A tick renders a
 * clock again only when what it reads changed (a football clock reads in minutes: once a minute).
 */
const tick = createStore(0);
let ticker: ReturnType<typeof setInterval> | undefined;
let watchers = 0;

function watchTicks(): () => void {
  watchers += 1;
  ticker ??= setInterval(() => tick.set((n) => n + 1), 1000);
  return () => {
    watchers -= 1;
    if (watchers === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
}

/** What a live event's clock reads now, or null; the component renders again when the reading changes. */
function useClock(event: EventHeader, locale: string): string | null {
  const running = event.status === 'live' && event.clock?.running === true;
  const read = () =>
    event.status === 'live' && event.clock
      ? clockReading(event.clock, event.period ?? null, clockSeconds(event.clock, Date.now()), locale)
      : null;
  const reading = read();
  const latest = useRef({ read, reading });
  latest.current = { read, reading };
  const [, rerender] = useState(0);
  useEffect(() => {
    if (!running) return;
    const stopWatching = watchTicks();
    const stopListening = tick.subscribe(() => {
      if (latest.current.read() !== latest.current.reading) rerender((n) => n + 1);
    });
    return () => {
      stopListening();
      stopWatching();
    };
  }, [running]);
  return reading;
}

/** "2nd half · 63'", "Q3 · 07:12", "Set 2": a live event's period and clock, as the feed last set them. */
function useLiveState(event: EventHeader): { period: string | null; clock: string | null } {
  const locale = useStore(localeStore);
  const clock = useClock(event, locale);
  return { period: event.status === 'live' ? periodLabel(event.period) : null, clock };
}

/** The live badge with the period and the running clock; widths fixed by tabular digits so a tick moves nothing. */
export function LiveState({ event }: { event: EventHeader }) {
  const { period, clock } = useLiveState(event);
  return (
    <span class="live-state">
      <span class="badge live">{t('liveBadge')}</span>
      {period && <span class="live-period">{period}</span>}
      {clock && <span class="live-clock">{clock}</span>}
    </span>
  );
}

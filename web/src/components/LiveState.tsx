import { useEffect } from 'preact/hooks';
import { localeStore, t } from '../i18n/index.ts';
import { periodLabel } from '../labels.ts';
import { clockReading, clockSeconds } from '../../../ui-shared/live-clock.ts';
import { createStore, useStore } from '../store.ts';
import type { EventHeader } from '../types.ts';

/** One timer for every running clock on the page: a tick a second while at least one is shown. */
const now = createStore(Date.now());
let ticker: ReturnType<typeof setInterval> | undefined;
let watchers = 0;

function useNow(running: boolean): number {
  const value = useStore(now);
  useEffect(() => {
    if (!running) return;
    watchers += 1;
    ticker ??= setInterval(() => now.set(Date.now()), 1000);
    return () => {
      watchers -= 1;
      if (watchers === 0) {
        clearInterval(ticker);
        ticker = undefined;
      }
    };
  }, [running]);
  return value;
}

/** "2nd half · 63'", "Q3 · 07:12", "Set 2": a live event's period and clock, as the feed last set them. */
function useLiveState(event: EventHeader): { period: string | null; clock: string | null } {
  const locale = useStore(localeStore);
  const running = event.status === 'live' && event.clock?.running === true;
  const nowMs = useNow(running);
  const clock =
    event.status === 'live' && event.clock
      ? clockReading(event.clock, event.period ?? null, clockSeconds(event.clock, nowMs), locale)
      : null;
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

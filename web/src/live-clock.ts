import type { ApiResponse } from './api-shapes.ts';

type Clock = NonNullable<ApiResponse<'getEvent'>['event']['clock']>;

/**
 * What a match clock reads at `nowMs`, in whole seconds: the catalog stores the clock as last set, and a running
 * clock moves on from there (up for time played, down for time left, never below 0).
 */
export function clockSeconds(clock: Clock, nowMs: number): number {
  if (!clock.running) return clock.seconds;
  const elapsed = Math.max(0, Math.floor((nowMs - Date.parse(clock.setAt)) / 1000));
  return clock.direction === 'down' ? Math.max(0, clock.seconds - elapsed) : clock.seconds + elapsed;
}

/** A clock reading as minutes and seconds ("67:05"), digits through the locale. */
export function formatClock(seconds: number, locale: string): string {
  const minutes = new Intl.NumberFormat(locale, { useGrouping: false }).format(Math.floor(seconds / 60));
  const rest = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2 }).format(seconds % 60);
  return `${minutes}:${rest}`;
}

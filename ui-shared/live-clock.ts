import type { ApiResponse } from './api-shapes.ts';

/** A match clock as the API answers it (an event's `clock`). */
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

/**
 * The two number formats of a clock, made once per locale: making an Intl.NumberFormat costs far more than using
 * one, and every running clock on a page is read every second.
 */
const formats = new Map<string, { plain: Intl.NumberFormat; twoDigits: Intl.NumberFormat }>();
function numberFormats(locale: string): { plain: Intl.NumberFormat; twoDigits: Intl.NumberFormat } {
  let made = formats.get(locale);
  if (!made) {
    made = {
      plain: new Intl.NumberFormat(locale, { useGrouping: false }),
      twoDigits: new Intl.NumberFormat(locale, { minimumIntegerDigits: 2 }),
    };
    formats.set(locale, made);
  }
  return made;
}

/** A clock reading as minutes and seconds ("67:05"), digits through the locale. */
export function formatClock(seconds: number, locale: string): string {
  const { plain, twoDigits } = numberFormats(locale);
  return `${plain.format(Math.floor(seconds / 60))}:${twoDigits.format(seconds % 60)}`;
}

/** Where each half of a football match ends, for stoppage time ("45+2'"). */
const REGULATION_END: Partial<Record<string, number>> = {
  first_half: 45,
  second_half: 90,
  extra_time_first_half: 105,
  extra_time_second_half: 120,
};

/**
 * A clock as the lists show it: a clock counting time played reads in minutes as football fans read it (the 63rd
 * minute is "63'", stoppage time "45+2'"); a clock counting time left reads "07:12".
 */
export function clockReading(clock: Clock, period: string | null, seconds: number, locale: string): string {
  if (clock.direction === 'down') return formatClock(seconds, locale);
  const number = numberFormats(locale).plain;
  const minute = Math.floor(seconds / 60) + 1;
  const end = period ? REGULATION_END[period] : undefined;
  if (end !== undefined && minute > end) return `${number.format(end)}+${number.format(minute - end)}'`;
  return `${number.format(minute)}'`;
}

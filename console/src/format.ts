import { clockSeconds, formatClock } from '../../ui-shared/live-clock.ts';
import { shownDecimalOdds } from '../../ui-shared/odds.ts';

/** Numbers, money and times, through Intl in the staff member's locale (the browser's). */
const locale = navigator.language || 'en';

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Minor units of a currency as the locale writes money: 123456 BRL → R$ 1.234,56. */
export function money(minor: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    moneyFormats.set(currency, format);
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

const oddsFormat = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Decimal odds as the player was shown them ("6.643" → 6.64), in the locale's digits. */
export function odds(text: string): string {
  return oddsFormat.format(shownDecimalOdds(text));
}

/** The minor units of a decimal amount typed by a person in a currency ("12.50" → 1250), or null. */
export function minorUnits(text: string, currency: string): number | null {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const clean = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  if (fraction.length > digits) return null;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

const integerFormat = new Intl.NumberFormat(locale);
export const count = (value: number) => integerFormat.format(value);

const percentFormat = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
export const percent = (ratio: number) => percentFormat.format(ratio);

const millisecondsFormat = new Intl.NumberFormat(locale, {
  style: 'unit',
  unit: 'millisecond',
  maximumFractionDigits: 0,
});
export const milliseconds = (value: number) => millisecondsFormat.format(value);

const dateTimeFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });

export const dateTime = (iso: string | null | undefined) => (iso ? dateTimeFormat.format(new Date(iso)) : '');
/** A UTC day (reports count by UTC day) written in the locale. */
export const utcDay = (iso: string) => dayFormat.format(new Date(iso));

/** A live event's match clock as it reads now ("67:05"), or '' without one. */
export function matchClock(clock: Parameters<typeof clockSeconds>[0] | null, nowMs: number): string {
  return clock ? formatClock(clockSeconds(clock, nowMs), locale) : '';
}

/** An instant as a `datetime-local` input's value, in the browser's time zone ("2026-03-02T15:00"). */
export function localInput(iso: string): string {
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

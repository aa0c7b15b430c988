import { clockSeconds, formatClock } from '../../ui-shared/live-clock.ts';
import { shownDecimalOdds } from '../../ui-shared/odds.ts';
import { locale } from './messages.ts';

type Formatter = Intl.NumberFormat | Intl.DateTimeFormat;
const formatters = new Map<string, Formatter>();

/** A formatter of the chosen language's locale (locale() changes with the staff member's choice), made once each. */
function inLocale<F extends Formatter>(name: string, make: (locale: string) => F): F {
  const current = locale();
  const key = `${name}:${current}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = make(current);
    formatters.set(key, formatter);
  }
  return formatter as F;
}

/** Minor units of a currency as the locale writes money: 123456 BRL → R$ 1.234,56 (pt-BR). */
export function money(minor: number, currency: string): string {
  const format = inLocale(`money:${currency}`, (at) => new Intl.NumberFormat(at, { style: 'currency', currency }));
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** Decimal odds as the player was shown them ("6.643" → 6.64), in the locale's digits. */
export function odds(text: string): string {
  return inLocale(
    'odds',
    (at) => new Intl.NumberFormat(at, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  ).format(shownDecimalOdds(text));
}

/** The minor units of a decimal amount typed by a person in a currency ("12.50" or "12,50" → 1250), or null. */
export function minorUnits(text: string, currency: string): number | null {
  const digits = fractionDigits(currency);
  const clean = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  if (fraction.length > digits) return null;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/**
 * Minor units as the starting text of an amount field, with the locale's decimal sign and no grouping, so that
 * minorUnits() reads it back: 1000 BRL → "10,00" (pt-BR), "10.00" (en).
 */
export function amountInput(minor: number, currency: string): string {
  const digits = fractionDigits(currency);
  return inLocale(
    `amount:${digits}`,
    (at) =>
      new Intl.NumberFormat(at, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }),
  ).format(minor / 10 ** digits);
}

/** Digits after the decimal sign of a currency (2 for BRL, 0 for CLP): the currency's, whatever the language. */
function fractionDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

export const count = (value: number) => inLocale('integer', (at) => new Intl.NumberFormat(at)).format(value);

export const percent = (ratio: number) =>
  inLocale('percent', (at) => new Intl.NumberFormat(at, { style: 'percent', maximumFractionDigits: 1 })).format(ratio);

export const milliseconds = (value: number) =>
  inLocale(
    'milliseconds',
    (at) => new Intl.NumberFormat(at, { style: 'unit', unit: 'millisecond', maximumFractionDigits: 0 }),
  ).format(value);

export const dateTime = (iso: string | null | undefined) =>
  iso
    ? inLocale('dateTime', (at) => new Intl.DateTimeFormat(at, { dateStyle: 'medium', timeStyle: 'short' })).format(
        new Date(iso),
      )
    : '';

/** A UTC day (reports count by UTC day) written in the locale. */
export const utcDay = (iso: string) =>
  inLocale('utcDay', (at) => new Intl.DateTimeFormat(at, { dateStyle: 'medium', timeZone: 'UTC' })).format(
    new Date(iso),
  );

/** A live event's match clock as it reads now ("67:05"), or '' without one. */
export function matchClock(clock: Parameters<typeof clockSeconds>[0] | null, nowMs: number): string {
  return clock ? formatClock(clockSeconds(clock, nowMs), locale()) : '';
}

/** An instant as a `datetime-local` input's value, in the browser's time zone ("2026-03-02T15:00"). */
export function localInput(iso: string): string {
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

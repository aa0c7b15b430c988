import type { Locale, OddsFormat } from '../../../sdk/protocol.ts';
import { createStore } from '../store.ts';
import { en, type Catalogue, type MessageKey } from './en.ts';
import { es } from './es.ts';
import { ptBR } from './pt-BR.ts';
import { oddsMilli, shownDecimalOdds } from '../../../ui-shared/odds.ts';

export type { MessageKey };

const CATALOGUES: Record<Locale, Catalogue> = { en, 'pt-BR': ptBR, es };

/** The locale in use: `locale` of the address, else the tenant's, switched live by `set_locale`. */
export const localeStore = createStore<Locale>('en');

/** The tenant currency (ISO 4217), from /api/v1/config. */
export const currencyStore = createStore<string>('BRL');

/** Whether a key built at run time (`sport_${id}`) names a message, so a feed's unknown value can fall back. */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

/** A message of the current locale, with `{name}` placeholders filled. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const text = CATALOGUES[localeStore.get()][key];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The messages written once per plural form: `<key>_one` and `<key>_other`. */
type CountKey = {
  [K in MessageKey]: K extends `${infer Base}_one` ? (`${Base}_other` extends MessageKey ? Base : never) : never;
}[MessageKey];

/**
 * A message about a count, in the locale's plural form (CLDR, by Intl.PluralRules): "1 selection", "2 selections";
 * the three locales need only `one` and `other`. `{n}` is the count, written in the locale.
 */
export function tCount(key: CountKey, n: number): string {
  const locale = localeStore.get();
  const form = cached(`plural:${locale}`, () => new Intl.PluralRules(locale)).select(n) === 'one' ? 'one' : 'other';
  return t(`${key}_${form}`, { n: cached(`integer:${locale}`, () => new Intl.NumberFormat(locale)).format(n) });
}

const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(key: string, make: () => F): F {
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter as F;
}

function moneyFormat(): Intl.NumberFormat {
  const locale = localeStore.get();
  const currency = currencyStore.get();
  return cached(`money:${locale}:${currency}`, () => new Intl.NumberFormat(locale, { style: 'currency', currency }));
}

/** Digits after the decimal point of the tenant currency (2 for BRL, 0 for CLP). */
export function minorDigits(): number {
  return moneyFormat().resolvedOptions().maximumFractionDigits ?? 2;
}

/** An amount in minor units, formatted for the locale and the tenant currency: 1050 → "R$ 10,50". */
export function money(minor: number): string {
  return moneyFormat().format(minor / 10 ** minorDigits());
}

/** An amount taken (negative) or added, signed as the locale writes it: "-R$ 10,00", "+R$ 25,00". */
export function signedMoney(minor: number): string {
  const locale = localeStore.get();
  const currency = currencyStore.get();
  return cached(
    `signed:${locale}:${currency}`,
    () => new Intl.NumberFormat(locale, { style: 'currency', currency, signDisplay: 'exceptZero' }),
  ).format(minor / 10 ** minorDigits());
}

/** The tenant currency's symbol as the locale writes it (R$, US$, €). */
export function currencySymbol(): string {
  return (
    moneyFormat()
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? currencyStore.get()
  );
}

/** Minor units shown as a plain major-unit number for an input: 1050 → "10,50" (pt-BR). */
export function majorInput(minor: number): string {
  const digits = minorDigits();
  const locale = localeStore.get();
  return cached(
    `plain:${locale}:${digits}`,
    () =>
      new Intl.NumberFormat(locale, { minimumFractionDigits: 0, maximumFractionDigits: digits, useGrouping: false }),
  ).format(minor / 10 ** digits);
}

/**
 * What a player typed as an amount in major units, in minor units; null when it is not an amount. Accepts
 * "10", "10,5", "10.50", "1.000,50", "1,000.50": the last separator followed by at most the currency's
 * decimals is the decimal point, others are grouping.
 */
export function parseMajor(text: string): number | null {
  const digits = minorDigits();
  const cleaned = text.replace(/[\s\u00a0\u202f]/g, '').replace(/[^\d.,]/g, '');
  if (!/\d/.test(cleaned)) return null;
  const last = Math.max(cleaned.lastIndexOf('.'), cleaned.lastIndexOf(','));
  let whole = cleaned;
  let fraction = '';
  if (last >= 0) {
    const tail = cleaned.slice(last + 1);
    if (digits > 0 && tail.length <= digits) {
      whole = cleaned.slice(0, last);
      fraction = tail;
    }
  }
  whole = whole.replace(/[.,]/g, '');
  if (!/^\d*$/.test(whole) || !/^\d*$/.test(fraction)) return null;
  const value = Number(whole || '0') * 10 ** digits + Number((fraction + '0'.repeat(digits)).slice(0, digits) || '0');
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * Each locale's usual format when neither the player nor the host chose one. Our three locales are read where
 * decimal odds are the norm (Brazil, Spain and Latin America, international English); a host in the US or the UK
 * passes `oddsFormat` (american, fractional) when mounting.
 */
const DEFAULT_ODDS_FORMAT: Record<Locale, OddsFormat> = { en: 'decimal', 'pt-BR': 'decimal', es: 'decimal' };

/** The format the player chose (kept with their settings); null: not chosen. */
export const oddsFormatStore = createStore<OddsFormat | null>(null);
/** The format the casino mounted the sportsbook with (`oddsFormat`); null: none. */
export const hostOddsFormatStore = createStore<OddsFormat | null>(null);

/** The player's choice wins over the casino's, which wins over the locale's usual format. */
export function oddsFormat(): OddsFormat {
  return oddsFormatStore.get() ?? hostOddsFormatStore.get() ?? DEFAULT_ODDS_FORMAT[localeStore.get()];
}

/** Odds in thousandths from the API's decimal string ("2.125" → 2125), without binary floats. */
function integer(value: number, signDisplay: 'auto' | 'always' = 'auto'): string {
  const locale = localeStore.get();
  return cached(`int:${locale}:${signDisplay}`, () => new Intl.NumberFormat(locale, { signDisplay })).format(value);
}

/**
 * The simplest fraction within half a hundredth of the odds' profit (continued fractions, denominators up to 100):
 * decimal odds are themselves fractions rounded to hundredths, so 1.91 is read back as 10/11.
 */
function profitFraction(milli: number): [number, number] {
  const target = (milli - 1000) / 1000;
  let [h0, h1, k0, k1] = [0, 1, 1, 0];
  let rest = target;
  for (let step = 0; step < 12; step++) {
    const whole = Math.floor(rest);
    [h0, h1] = [h1, whole * h1 + h0];
    [k0, k1] = [k1, whole * k1 + k0];
    if (k1 > 100) return [h0, k0];
    if (Math.abs(h1 / k1 - target) < 0.005 || rest - whole < 1e-9) break;
    rest = 1 / (rest - whole);
  }
  return [h1, k1];
}

/**
 * Odds as the player reads them, in the chosen format and the locale's digits. Decimal odds are shown as the
 * bookmaker rounds them, two decimals, cut rather than rounded up, so the figure shown never promises more than is
 * paid: "2.125" → "2,12" (pt-BR). Fractional shows the profit per unit staked (2.15 → 23/20); American the profit
 * on 100 (+115) or the stake that wins 100 (-110).
 */
export function formatOdds(odds: string): string {
  const milli = oddsMilli(odds);
  const locale = localeStore.get();
  switch (oddsFormat()) {
    case 'fractional': {
      const [numerator, denominator] = profitFraction(milli);
      return `${integer(numerator)}/${integer(denominator)}`;
    }
    case 'american':
      if (milli === 1000) return integer(0);
      return milli >= 2000
        ? integer(Math.round((milli - 1000) / 10), 'always')
        : integer(-Math.round(100_000 / (milli - 1000)), 'always');
    case 'decimal':
      return cached(
        `odds:${locale}`,
        () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
      ).format(shownDecimalOdds(odds));
  }
}

/**
 * A line as the locale writes numbers: totals plain ("2.5" → "2,5" in pt-BR), handicaps signed ("1" → "+1",
 * "-1.5" → "-1,5") because the sign says who gives the start.
 */
export function formatLine(line: string, signed: boolean): string {
  const locale = localeStore.get();
  return cached(
    `line:${locale}:${signed}`,
    () =>
      new Intl.NumberFormat(locale, {
        minimumFractionDigits: 0,
        maximumFractionDigits: 3,
        signDisplay: signed ? 'exceptZero' : 'auto',
      }),
  ).format(Number(line));
}

function dateFormat(options: Intl.DateTimeFormatOptions, key: string): Intl.DateTimeFormat {
  const locale = localeStore.get();
  return cached(`date:${key}:${locale}`, () => new Intl.DateTimeFormat(locale, options));
}

function dayKey(date: Date): string {
  return `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
}

/** When an event starts, in the player's time zone: "Today 20:00", "Tomorrow 16:00", "Sat 7 Mar, 18:30". */
export function kickOff(iso: string): string {
  const date = new Date(iso);
  const time = dateFormat({ hour: '2-digit', minute: '2-digit' }, 'time').format(date);
  const today = new Date();
  const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  if (dayKey(date) === dayKey(today)) return `${t('today')} ${time}`;
  if (dayKey(date) === dayKey(tomorrow)) return `${t('tomorrow')} ${time}`;
  return dateFormat({ weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }, 'full')
    .format(date)
    .replace(/\.,/g, ',');
}

/** A date and time in the player's time zone, e.g. for when a bet was placed. */
export function dateTime(iso: string): string {
  return dateFormat({ dateStyle: 'medium', timeStyle: 'short' }, 'medium').format(new Date(iso));
}

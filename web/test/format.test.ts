// Money, odds, amounts typed by players, dates and the names of markets and selections, per locale (en, pt-BR, es):
// web/src/i18n/index.ts and web/src/labels.ts. Intl output is Node's (its ICU); \u00a0 is the no-break space.
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { LOCALES, type Locale } from '../../sdk/protocol.ts';
import {
  currencyStore,
  currencySymbol,
  dateTime,
  formatOdds,
  oddsFormat,
  oddsFormatStore,
  kickOff,
  localeStore,
  majorInput,
  minorDigits,
  money,
  parseMajor,
  t,
  tCount,
} from '../src/i18n/index.ts';
import { shownDecimalOdds } from '../../ui-shared/odds.ts';
import { en } from '../src/i18n/en.ts';
import { es } from '../src/i18n/es.ts';
import { ptBR } from '../src/i18n/pt-BR.ts';
import { eventName, marketLabel, marketNameLabel, selectionLabel, shortLabel, teamsOf } from '../src/labels.ts';
import type { EventHeader, Market, Selection } from '../src/types.ts';

process.env.TZ = 'UTC';

function use(locale: Locale, currency = 'BRL'): void {
  localeStore.set(locale);
  currencyStore.set(currency);
}

afterEach(() => use('en'));

describe('money', () => {
  it('shows minor units in major units of the tenant currency, as each locale writes them', () => {
    const cases: Array<[Locale, string, number, string]> = [
      ['en', 'BRL', 1050, 'R$10.50'],
      ['en', 'BRL', 123456789, 'R$1,234,567.89'],
      ['pt-BR', 'BRL', 1050, 'R$\u00a010,50'],
      ['pt-BR', 'BRL', 123456, 'R$\u00a01.234,56'],
      ['es', 'BRL', 1050, '10,50\u00a0BRL'],
      // Spanish groups thousands from five digits on
      ['es', 'BRL', 123456, '1234,56\u00a0BRL'],
      ['es', 'BRL', 123456789, '1.234.567,89\u00a0BRL'],
      ['en', 'USD', 5, '$0.05'],
      ['pt-BR', 'USD', 1050, 'US$\u00a010,50'],
      ['es', 'EUR', 0, '0,00\u00a0€'],
      // a currency without minor units: the amount is whole
      ['en', 'CLP', 1050, 'CLP\u00a01,050'],
      ['pt-BR', 'CLP', 123456, 'CLP\u00a0123.456'],
      ['es', 'CLP', 1050, '1050\u00a0CLP'],
    ];
    for (const [locale, currency, minor, shown] of cases) {
      use(locale, currency);
      assert.equal(money(minor), shown, `${locale} ${currency} ${minor}`);
    }
  });

  it('knows the decimals and the symbol of the tenant currency', () => {
    use('en', 'BRL');
    assert.equal(minorDigits(), 2);
    assert.equal(currencySymbol(), 'R$');
    use('en', 'CLP');
    assert.equal(minorDigits(), 0);
    use('en', 'USD');
    assert.equal(currencySymbol(), '$');
    use('pt-BR', 'USD');
    assert.equal(currencySymbol(), 'US$');
    use('es', 'EUR');
    assert.equal(currencySymbol(), '€');
  });

  it('writes an amount for a stake field, and reads back what players type, in either notation', () => {
    use('pt-BR');
    assert.equal(majorInput(1050), '10,5');
    assert.equal(majorInput(100000), '1000');
    assert.equal(majorInput(0), '0');
    use('en');
    assert.equal(majorInput(1050), '10.5');
    assert.equal(majorInput(123456), '1234.56');

    const typed: Array<[string, number | null]> = [
      ['10', 1000],
      ['10,5', 1050],
      ['10.50', 1050],
      ['0,05', 5],
      ['1.000,50', 100050],
      ['1,000.50', 100050],
      ['1.000', 100000],
      ['12.345', 1234500],
      [' R$ 7,25 ', 725],
      ['1\u00a0000,10', 100010],
      ['10.', 1000],
      ['.5', 50],
      ['', null],
      ['abc', null],
      ['.', null],
      ['1.2.3', 1230],
      ['99999999999999999999', null],
    ];
    for (const [text, minor] of typed) assert.equal(parseMajor(text), minor, JSON.stringify(text));
    // without minor units every separator groups
    use('es', 'CLP');
    assert.equal(parseMajor('1.500'), 1500);
    assert.equal(parseMajor('1500,5'), 15005);
  });
});

describe('odds', () => {
  it('are shown cut to two decimals, never rounded up, in the app and the console alike', () => {
    assert.deepEqual(['6.643', '2.125', '2.10', '1.999', '1000'].map(shownDecimalOdds), [6.64, 2.12, 2.1, 1.99, 1000]);
  });

  it('shows decimal odds with the locale separator and two decimals, cut as the bookmaker rounds them', () => {
    const cases: Array<[Locale, string, string]> = [
      ['en', '2.1', '2.10'],
      ['en', '2', '2.00'],
      ['en', '10.125', '10.12'],
      ['en', '7.999', '7.99'],
      ['en', '1000', '1,000.00'],
      ['pt-BR', '2.1', '2,10'],
      ['pt-BR', '10.125', '10,12'],
      ['pt-BR', '1000', '1.000,00'],
      ['es', '1.5', '1,50'],
      ['es', '1000', '1000,00'],
    ];
    for (const [locale, odds, shown] of cases) {
      use(locale);
      assert.equal(formatOdds(odds), shown, `${locale} ${odds}`);
    }
  });

  it('shows fractional odds as the simplest fraction of the profit, in the locale digits', () => {
    use('en');
    oddsFormatStore.set('fractional');
    try {
      const cases: Array<[string, string]> = [
        ['2', '1/1'],
        ['2.15', '23/20'],
        ['1.91', '10/11'],
        ['1.5', '1/2'],
        ['3.25', '9/4'],
        ['1.01', '1/100'],
        ['1001', '1,000/1'],
      ];
      for (const [odds, shown] of cases) assert.equal(formatOdds(odds), shown, odds);
    } finally {
      oddsFormatStore.set(null);
    }
  });

  it('shows American odds as the profit on 100, or the stake that wins 100, signed', () => {
    use('pt-BR');
    oddsFormatStore.set('american');
    try {
      const cases: Array<[string, string]> = [
        ['2.15', '+115'],
        ['2', '+100'],
        ['1.91', '-110'],
        ['1.5', '-200'],
        ['12', '+1.100'],
      ];
      for (const [odds, shown] of cases) assert.equal(formatOdds(odds), shown, odds);
    } finally {
      oddsFormatStore.set(null);
    }
  });

  it('follows the locale when neither the player nor the host chose a format', () => {
    for (const locale of LOCALES) {
      use(locale);
      assert.equal(oddsFormat(), 'decimal', locale);
    }
  });
});

describe('counts', () => {
  it('take the plural form of the locale, with the count written in the locale', () => {
    assert.equal(tCount('betSlipCount', 1), 'Bet slip, 1 selection');
    assert.equal(tCount('betSlipCount', 0), 'Bet slip, 0 selections');
    assert.equal(tCount('betSlipCount', 2), 'Bet slip, 2 selections');
    use('pt-BR');
    assert.equal(tCount('betSlipCount', 1), 'Cupom, 1 seleção');
    assert.equal(tCount('betSlipCount', 20), 'Cupom, 20 seleções');
    use('es');
    assert.equal(tCount('betSlipCount', 1), 'Boleto, 1 selección');
    assert.equal(tCount('betSlipCount', 2), 'Boleto, 2 selecciones');
  });
});

describe('dates', () => {
  it('says today and tomorrow, else the day, in the player time zone', () => {
    mock.timers.enable({ apis: ['Date'], now: new Date('2026-03-10T15:00:00Z') });
    try {
      const cases: Array<[Locale, string, string]> = [
        ['en', '2026-03-10T20:05:00Z', 'Today 08:05 PM'],
        ['en', '2026-03-11T09:00:00Z', 'Tomorrow 09:00 AM'],
        ['en', '2026-03-14T18:30:00Z', 'Sat, Mar 14, 06:30 PM'],
        ['pt-BR', '2026-03-10T20:05:00Z', 'Hoje 20:05'],
        ['pt-BR', '2026-03-11T09:00:00Z', 'Amanhã 09:00'],
        // "sáb., 14 de mar., 18:30" without the dots before commas
        ['pt-BR', '2026-03-14T18:30:00Z', 'sáb, 14 de mar, 18:30'],
        ['es', '2026-03-11T23:59:00Z', 'Mañana 23:59'],
        ['es', '2026-03-09T10:00:00Z', 'lun, 9 mar, 10:00'],
      ];
      for (const [locale, iso, shown] of cases) {
        use(locale);
        assert.equal(kickOff(iso), shown, `${locale} ${iso}`);
      }
    } finally {
      mock.timers.reset();
    }
  });

  it('writes when a bet was placed', () => {
    const cases: Array<[Locale, string]> = [
      ['en', 'Mar 10, 2026, 2:00 PM'],
      ['pt-BR', '10 de mar. de 2026, 14:00'],
      ['es', '10 mar 2026, 14:00'],
    ];
    for (const [locale, shown] of cases) {
      use(locale);
      assert.equal(dateTime('2026-03-10T14:00:00Z'), shown, locale);
    }
  });
});

describe('messages', () => {
  it('has the same keys in every catalogue, and fills placeholders', () => {
    assert.deepEqual(Object.keys(ptBR).sort(), Object.keys(en).sort());
    assert.deepEqual(Object.keys(es).sort(), Object.keys(en).sort());
    assert.equal(t('betSlipCount_other', { n: 3 }), 'Bet slip, 3 selections');
    use('pt-BR');
    assert.equal(t('versus', { home: 'Flamengo', away: 'Palmeiras' }), 'Flamengo x Palmeiras');
    // a placeholder without a value stays as it is
    assert.equal(t('versus', { home: 'Flamengo' }), 'Flamengo x {away}');
  });

  it('translates every message: a message the same as in English must be listed here as the same on purpose', () => {
    // words these languages borrow from English, and patterns with no words
    const sameOnPurpose: Record<string, ReadonlySet<string>> = {
      'pt-BR': new Set([
        'moreMarkets',
        'market_totals',
        'market_handicap',
        'tab_handicaps',
        'tab_sets',
        'scoreboard',
        'receiptRef',
      ]),
      es: new Set(['moreMarkets', 'market_totals', 'tab_sets', 'scoreboard', 'receiptRef', 'outcome_no']),
    };
    for (const [locale, catalogue] of [
      ['pt-BR', ptBR],
      ['es', es],
    ] as const) {
      const untranslated = (Object.keys(en) as Array<keyof typeof en>)
        .filter((key) => catalogue[key] === en[key] && !sameOnPurpose[locale]!.has(key))
        .sort();
      assert.deepEqual(untranslated, [], `${locale}: untranslated`);
      const stale = [...sameOnPurpose[locale]!].filter(
        (key) => catalogue[key as keyof typeof en] !== en[key as keyof typeof en],
      );
      assert.deepEqual(stale, [], `${locale}: listed as the same but translated`);
    }
  });

  it('names the settled tab and a finished event apart from cashing out, in every language', () => {
    // pt-BR once said "Encerrar" for the cash-out, a cashed-out bet, the settled tab and a finished event
    const stems = (text: string) =>
      text
        .replace(/\{\w+\}/g, '')
        .toLowerCase()
        .split(/[^\p{L}]+/u)
        .filter((word) => word.length > 3)
        .map((word) => word.slice(0, 5));
    for (const [locale, catalogue] of [
      ['en', en],
      ['pt-BR', ptBR],
      ['es', es],
    ] as const) {
      const cashingOut = new Set([...stems(catalogue.cashOut), ...stems(catalogue.status_cashed_out)]);
      for (const key of ['settled', 'finished'] as const) {
        const shared = stems(catalogue[key]).filter((stem) => cashingOut.has(stem));
        assert.deepEqual(shared, [], `${locale} ${key}: "${catalogue[key]}" shares a word with cashing out`);
      }
    }
  });

  it('uses the same placeholders in every language', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const catalogue of [ptBR, es]) {
      for (const key of Object.keys(en) as Array<keyof typeof en>) {
        assert.deepEqual(placeholders(catalogue[key]), placeholders(en[key]), key);
      }
    }
  });
});

describe('market and selection names', () => {
  const event: EventHeader = {
    id: 'ev_1',
    sport: { id: 'soccer', name: 'Soccer' },
    competition: { id: 'cp_1', name: 'Premier League', country: 'England' },
    home: 'Arsenal',
    away: 'Chelsea',
    startsAt: '2026-03-10T20:00:00Z',
    status: 'scheduled',
    score: null,
    period: null,
    clock: null,
    betDelaySeconds: 0,
  };
  const selection = (name: string, outcome: string): Selection => ({
    id: `se_${outcome}`,
    name,
    outcome,
    odds: '2.00',
    oddsVersion: 1,
    result: null,
  });
  const market = (type: Market['type'], line: string | null, selections: Selection[]): Market => ({
    id: 'mk_1',
    type,
    name: type,
    line,
    status: 'open',
    settlementVersion: 0,
    selections,
  });

  it('names markets in the player language, with the line where it belongs', () => {
    const cases: Array<[Locale, Market['type'], string | null, string]> = [
      ['en', 'match_result', null, 'Match result'],
      ['en', 'totals', '2.5', 'Total 2.5'],
      ['en', 'handicap', '-1.5', 'Handicap -1.5'],
      ['en', 'both_teams_to_score', '2.5', 'Both teams to score'],
      ['pt-BR', 'correct_score', null, 'Placar exato'],
      ['pt-BR', 'moneyline', null, 'Vencedor'],
      ['es', 'handicap', '1', 'Hándicap +1'],
      ['pt-BR', 'totals', '221.5', 'Total 221,5'],
      ['es', 'handicap', '-1.5', 'Hándicap -1,5'],
      ['es', 'both_teams_to_score', null, 'Ambos equipos marcan'],
    ];
    for (const [locale, type, line, shown] of cases) {
      use(locale);
      assert.equal(marketLabel(type, line), shown, `${locale} ${type}`);
    }
    use('pt-BR');
    assert.equal(marketNameLabel('Total over/under 2.5'), 'Total 2,5');
    assert.equal(marketNameLabel('Handicap -1'), 'Handicap -1');
    assert.equal(marketNameLabel('match result'), 'Resultado final');
    assert.equal(marketNameLabel('Half-time result'), 'Resultado do 1º tempo');
    assert.equal(marketNameLabel('Moneyline'), 'Vencedor');
  });

  it('names selections: sides as teams, over/under, draw, yes and no translated, the rest as written', () => {
    const cases: Array<[Locale, string, string | null | undefined, string]> = [
      ['en', 'Home -1.5', null, 'Arsenal -1.5'],
      ['en', 'away +1.5', null, 'Chelsea +1.5'],
      ['en', 'Home', null, 'Arsenal'],
      ['en', 'Over 2.5', null, 'Over 2.5'],
      ['pt-BR', 'Over 2.5', null, 'Mais de 2,5'],
      ['pt-BR', 'Home -1.5', null, 'Arsenal -1,5'],
      ['es', 'Away +1.5', null, 'Chelsea +1,5'],
      ['pt-BR', 'Under', '3.5', 'Menos de 3,5'],
      ['pt-BR', 'Under', null, 'Under'],
      ['pt-BR', 'Draw', null, 'Empate'],
      ['es', 'Yes', null, 'Sí'],
      ['es', 'NO', null, 'No'],
      ['es', 'Over 1.5', undefined, 'Más de 1,5'],
      ['es', '2-1', null, '2-1'],
      ['pt-BR', 'Home or Draw', null, 'Arsenal ou Empate'],
      ['es', 'Draw or Away', null, 'Empate o Chelsea'],
      ['es', 'Homer Simpson FC', null, 'Homer Simpson FC'],
    ];
    for (const [locale, name, line, shown] of cases) {
      use(locale);
      assert.equal(selectionLabel(name, 'Arsenal', 'Chelsea', line), shown, `${locale} ${name}`);
    }
  });

  it('labels the main market columns 1 X 2, and writes and reads event names', () => {
    const result = market('match_result', null, [
      selection('Arsenal', 'home'),
      selection('Draw', 'draw'),
      selection('Chelsea', 'away'),
    ]);
    assert.deepEqual(
      result.selections.map((s) => shortLabel(s, result, event)),
      ['1', 'X', '2'],
    );
    const totals = market('totals', '2.5', [selection('Over', 'over'), selection('Under', 'under')]);
    use('es');
    assert.deepEqual(
      totals.selections.map((s) => shortLabel(s, totals, event)),
      ['Más de 2,5', 'Menos de 2,5'],
    );
    assert.equal(eventName('Boca', 'River'), 'Boca vs River');
    assert.deepEqual(teamsOf('Flamengo vs Palmeiras'), ['Flamengo', 'Palmeiras']);
    assert.deepEqual(teamsOf('Flamengo vs. Palmeiras'), ['Flamengo', 'Palmeiras']);
    assert.deepEqual(teamsOf('Flamengo v Palmeiras'), ['Flamengo v Palmeiras', 'Flamengo v Palmeiras']);
  });
});

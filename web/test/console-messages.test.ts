// The staff console's words in its languages (console/src/i18n/): every message of pt-BR and es translated, function
// messages included, no value a message is given left out, and the language and locale taken from the browser's.
// The console has no unit tests of its own elsewhere: its catalogues are plain data, tested here beside the app's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { en, type Messages } from '../../console/src/i18n/en.ts';
import { es } from '../../console/src/i18n/es.ts';
import { formattingLocale, preferredLanguage, type Language } from '../../console/src/i18n/languages.ts';
import { ptBR } from '../../console/src/i18n/pt-BR.ts';

type Message = string | ((...args: never[]) => string);

/** Every message of a catalogue by its path ("trading.statuses.live"), strings and functions alike. */
function messages(catalogue: object, path = ''): Map<string, Message> {
  const found = new Map<string, Message>();
  for (const [key, value] of Object.entries(catalogue)) {
    const at = path ? `${path}.${key}` : key;
    if (typeof value === 'string' || typeof value === 'function') found.set(at, value as Message);
    else for (const [inner, message] of messages(value as object, at)) found.set(inner, message);
  }
  return found;
}

const call = (message: Message, args: unknown[]) => (message as (...values: unknown[]) => string)(...args);

const TRANSLATIONS: Array<[Language, Messages]> = [
  ['pt-BR', ptBR],
  ['es', es],
];

/** Messages the same as in English on purpose, each with why; anything else the same is untranslated. */
const SAME_ON_PURPOSE: Record<Exclude<Language, 'en'>, Record<string, string>> = {
  'pt-BR': {
    email: 'Brazilian Portuguese writes e-mail as English does',
    'staff.email': 'Brazilian Portuguese writes e-mail as English does',
    'roles.trader': 'the trade’s own word in Brazilian sportsbooks',
    'tenant.label': 'the platform’s name for a casino’s environment, as in its ids (tn_…) and the API',
    'home.tenant': 'the platform’s name for a casino’s environment, as in its ids (tn_…) and the API',
    'trading.marketTypes.totals': 'the same word',
    'trading.marketTypes.handicap': 'borrowed from English, as in the player’s app',
    'report.total': 'the same word',
    'report.ggr': 'the industry’s acronym, used as it is',
    'home.p50': 'a percentile’s name, not a word',
    'home.p99': 'a percentile’s name, not a word',
    'workspace.call': 'a pattern with no words: an outcome code and an HTTP status',
  },
  es: {
    'audit.actors.tenant': 'casino is the same word in Spanish',
    'roles.trader': 'the trade’s own word in Latin-American sportsbooks',
    'tenant.label': 'the platform’s name for a casino’s environment, as in its ids (tn_…) and the API',
    'home.tenant': 'the platform’s name for a casino’s environment, as in its ids (tn_…) and the API',
    'trading.marketTypes.totals': 'the same word',
    'report.total': 'the same word',
    'report.ggr': 'the industry’s acronym, used as it is',
    'home.p50': 'a percentile’s name, not a word',
    'home.p99': 'a percentile’s name, not a word',
    'workspace.call': 'a pattern with no words: an outcome code and an HTTP status',
  },
};

/**
 * Values to call each function message with, so that each of its branches is read (one and many, either action,
 * with and without a score). Strings in capitals stand for what the console passes; each must reach the text.
 */
const CALLS: Record<string, unknown[][]> = {
  failedCode: [['CODE']],
  orderBy: [
    ['COLUMN', true],
    ['COLUMN', false],
  ],
  heldWaiting: [
    [1, 'ONE'],
    [3, 'THREE'],
  ],
  'aggregator.clientQuotaHint': [['MAX']],
  'aggregator.revokeText': [['KEY']],
  'workspace.call': [['STATUS', 'OUTCOME']],
  'workspace.collectedHint': [['AMOUNT']],
  'workspace.collectedInvalid': [['AMOUNT']],
  'workspace.writtenOff': [['AMOUNT']],
  'workspace.notOffered': [['ACTION', 'WHY']],
  'trading.marketCounts': [
    [1, 1, 1],
    [2, 3, 4],
  ],
  'trading.oddsFor': [['NAME']],
  'trading.nowAt': [['ODDS']],
  'trading.fedOdds': [['ODDS']],
  'trading.controlHint': [['PRODUCER']],
  'trading.resultFor': [['NAME']],
  'trading.eventNow': [
    ['STATUS', { home: 2, away: 1 }],
    ['STATUS', null],
  ],
  'trading.settleTitle': [['MARKET']],
  'trading.resettleTitle': [['MARKET']],
  'trading.voidTitle': [['MARKET']],
  'trading.previewBets': [
    [1, 'ONE'],
    [5, 'FIVE'],
  ],
  'trading.credits': [
    [1, 'ONE', 'AMOUNT'],
    [2, 'TWO', 'AMOUNT'],
  ],
  'trading.debits': [
    [1, 'ONE', 'AMOUNT'],
    [2, 'TWO', 'AMOUNT'],
  ],
  'trading.settledNote': [
    ['settle', 1, 1, 'OWED'],
    ['resettle', 2, 3, ''],
  ],
  'trading.owedCredits': [['AMOUNT']],
  'trading.owedDebits': [['AMOUNT']],
  'trading.resultTitle': [['EVENT']],
  'trading.finalScore': [['SIDE']],
  'trading.halfTimeScore': [['SIDE']],
  'trading.confirmResult': [
    [1, 'ONE'],
    [2, 'TWO'],
  ],
  'bets.attempts': [[1], [2]],
  'bets.details': [['BET']],
  'adjustments.amountHint': [['CURRENCY', 'EXAMPLE']],
  'adjustments.amountInvalid': [['EXAMPLE']],
  'adjustments.decide': [['ACTION']],
  'adjustments.decidedBy': [['WHO']],
  'adjustments.policy': [['ABOVE', 'MAX']],
  'adjustments.policyEveryone': [['MAX']],
  'adjustments.madeApproved': [['AMOUNT', 'DIRECTION', 'PLAYER']],
  'adjustments.madeProposed': [['AMOUNT', 'DIRECTION', 'PLAYER']],
  'settings.identityLocked': [['WHEN']],
  'settings.keyId': [['KEY']],
  'report.chartScale': [['FIRST', 'LAST', 'LARGEST']],
  'report.csvUnits': [['EXAMPLE']],
  'report.chart': [['TENANT', 'CURRENCY']],
  'report.caption': [['TENANT']],
  'home.figuresCaption': [['PERIOD']],
  'home.pending': [['COUNT']],
  'home.oldestOwed': [['SINCE']],
  'staff.resetText': [['EMAIL']],
  'staff.disableText': [['EMAIL']],
  'staff.enableText': [['EMAIL']],
  'feed.registered': [['NAME']],
  'risk.stakes': [['AMOUNT']],
  'risk.largestBet': [
    ['STAKE', 'PAYOUT', 1, 'PLACED'],
    ['STAKE', 'PAYOUT', 3, 'PLACED'],
  ],
  'risk.eventLimit': [['RESERVED', 'MAX']],
  'risk.selectionLimit': [['RESERVED', 'MAX']],
};

const english = messages(en);

describe('the console’s messages', () => {
  it('has every message of English in every language, each a text or a function as in English', () => {
    for (const [language, catalogue] of TRANSLATIONS) {
      const translated = messages(catalogue);
      assert.deepEqual([...translated.keys()].sort(), [...english.keys()].sort(), language);
      for (const [path, message] of english) assert.equal(typeof translated.get(path), typeof message, path);
    }
  });

  it('translates every text: one the same as in English must be listed as the same on purpose', () => {
    for (const [language, catalogue] of TRANSLATIONS) {
      const translated = messages(catalogue);
      const onPurpose = SAME_ON_PURPOSE[language as Exclude<Language, 'en'>];
      const untranslated = [...english]
        .filter(([path, message]) => typeof message === 'string' && translated.get(path) === message)
        .map(([path]) => path)
        .filter((path) => !(path in onPurpose));
      assert.deepEqual(untranslated, [], `${language}: untranslated`);
    }
  });

  it('translates every function message, in each of its branches, and keeps every value it is given', () => {
    const functions = [...english].filter(([, message]) => typeof message === 'function').map(([path]) => path);
    assert.deepEqual(
      functions.filter((path) => !(path in CALLS)),
      [],
      'function messages without values to call',
    );
    assert.deepEqual(
      Object.keys(CALLS).filter((path) => !functions.includes(path)),
      [],
      'values for no message',
    );
    for (const [language, catalogue] of TRANSLATIONS) {
      const translated = messages(catalogue);
      const onPurpose = SAME_ON_PURPOSE[language as Exclude<Language, 'en'>];
      for (const path of functions) {
        for (const args of CALLS[path]!) {
          const inEnglish = call(english.get(path)!, args);
          const text = call(translated.get(path)!, args);
          if (!(path in onPurpose)) assert.notEqual(text, inEnglish, `${language} ${path}: English`);
          for (const value of args.filter((arg) => typeof arg === 'string' && inEnglish.includes(arg))) {
            assert.ok(text.includes(value as string), `${language} ${path} leaves out ${String(value)}: ${text}`);
          }
        }
      }
    }
  });

  it('lists as the same on purpose only messages that are the same', () => {
    for (const [language, catalogue] of TRANSLATIONS) {
      const translated = messages(catalogue);
      const stale = Object.keys(SAME_ON_PURPOSE[language as Exclude<Language, 'en'>]).filter((path) => {
        const message = english.get(path);
        if (typeof message !== 'function') return translated.get(path) !== message;
        return CALLS[path]!.some((args) => call(translated.get(path)!, args) !== call(message, args));
      });
      assert.deepEqual(stale, [], `${language}: listed as the same but translated`);
    }
  });
});

describe('the console’s language', () => {
  it('is the first of the browser’s languages it speaks: any Portuguese is pt-BR, any Spanish es, else English', () => {
    const cases: Array<[string[], Language]> = [
      [['pt-BR'], 'pt-BR'],
      [['pt'], 'pt-BR'],
      [['pt-PT', 'en'], 'pt-BR'],
      [['es-MX'], 'es'],
      [['es'], 'es'],
      [['fr-FR', 'es-AR', 'en'], 'es'],
      [['en-GB', 'pt-BR'], 'en'],
      [['de-DE', 'fr'], 'en'],
      [[], 'en'],
    ];
    for (const [browser, language] of cases) assert.equal(preferredLanguage(browser), language, browser.join(','));
  });

  it('writes numbers, money and dates as the browser’s country does in that language, else as its language does', () => {
    const cases: Array<[Language, string[], string]> = [
      ['pt-BR', ['pt-BR'], 'pt-BR'],
      // Portuguese from Portugal still reads Brazilian words: its numbers agree with them
      ['pt-BR', ['pt-PT'], 'pt-BR'],
      ['es', ['es-AR'], 'es-AR'],
      // no country named: Latin America's way, not Spain's
      ['es', ['es'], 'es-419'],
      ['es', ['en-US'], 'es-419'],
      ['en', ['en-GB'], 'en-GB'],
      ['en', ['pt-BR'], 'en'],
    ];
    for (const [language, browser, locale] of cases) {
      assert.equal(formattingLocale(language, browser), locale, `${language} in ${browser.join(',')}`);
    }
    // what a Brazilian operator reads (Intl output is Node's ICU; \u00a0 is the no-break space)
    const brazil = formattingLocale('pt-BR', ['pt-BR']);
    assert.equal(
      new Intl.NumberFormat(brazil, { style: 'currency', currency: 'BRL' }).format(1234.56),
      'R$\u00a01.234,56',
    );
    assert.equal(
      new Intl.DateTimeFormat(brazil, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
        new Date('2026-03-10T14:00:00Z'),
      ),
      '10 de mar. de 2026, 14:00',
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCALES } from '../../demo/casino-state.ts';
import { fill, MESSAGES, type MessageKey } from '../../demo/messages.ts';
import { casinoPage, startingPage, type PageConfig } from '../../demo/page.ts';

const en = MESSAGES.en;
const keys = Object.keys(en) as MessageKey[];

/** Messages the same as in English on purpose, each with its reason. */
const SAME_ON_PURPOSE: Record<'pt-BR' | 'es', Partial<Record<MessageKey, string>>> = {
  'pt-BR': {},
  es: { brandKind: 'Spanish says "casino" too' },
};

describe("the demo casino's words", () => {
  it('has every English key in every language, and no other (the types refuse it too)', () => {
    for (const locale of LOCALES) assert.deepEqual(Object.keys(MESSAGES[locale]).sort(), [...keys].sort(), locale);
  });

  it('translates every message: one the same as in English must be listed with its reason', () => {
    for (const locale of ['pt-BR', 'es'] as const) {
      const table = MESSAGES[locale];
      const allowed = SAME_ON_PURPOSE[locale];
      const untranslated = keys.filter((key) => table[key] === en[key] && !(key in allowed));
      assert.deepEqual(untranslated, [], `${locale}: untranslated`);
      const stale = Object.keys(allowed).filter((key) => table[key as MessageKey] !== en[key as MessageKey]);
      assert.deepEqual(stale, [], `${locale}: listed as the same but translated`);
    }
  });

  it('uses the same placeholders, and keeps the protocol words a developer looks up', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    const protocol = (text: string) => text.match(/\b[a-z]+_[a-z_]+\b|\b\d{3}\b|onSessionExpired/g) ?? [];
    for (const locale of ['pt-BR', 'es'] as const) {
      for (const key of keys) {
        assert.deepEqual(placeholders(MESSAGES[locale][key]), placeholders(en[key]), `${locale} ${key}`);
        assert.deepEqual(protocol(MESSAGES[locale][key]).sort(), protocol(en[key]).sort(), `${locale} ${key}`);
      }
    }
  });

  it('has a plural pair for every counted message', () => {
    for (const key of keys.filter((name) => name.endsWith('_one'))) {
      assert.ok(keys.includes(key.replace(/_one$/, '_other') as MessageKey), key);
    }
    assert.equal(fill(en.openBets_other, { n: 3 }), '3 open bets');
    assert.equal(fill(en.teamWon), '{name} won', 'a placeholder without a value stays');
  });

  it('renders the page in the chosen language, its title and buttons too', () => {
    const config: PageConfig = {
      brand: 'Aurora',
      sportsbookUrl: 'http://localhost:3000',
      apiReferenceUrl: 'http://localhost:3000/docs',
      tenant: 'tn_1',
      currency: 'BRL',
      locale: 'pt-BR',
      locales: [...LOCALES],
      messages: MESSAGES,
      launchToken: null,
      player: null,
      balance: null,
      notice: null,
    };
    const page = casinoPage(config);
    assert.match(page, /<html lang="pt-BR">/);
    assert.match(page, /<title>Aurora Cassino · Esportes<\/title>/);
    assert.match(page, /id="login" data-t="logIn">Entrar</);
    assert.match(page, /id="deposit" data-t="deposit">Depositar</);
    assert.match(page, /data-t="faultTitle">Chave de falha da carteira</);
    assert.doesNotMatch(page, />Log in</);
    assert.match(casinoPage({ ...config, locale: 'es' }), /<title>Aurora Casino · Deportes<\/title>/);
    assert.match(startingPage('es'), /La demo está arrancando/);
  });
});

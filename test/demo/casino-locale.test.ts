import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserLocale } from '../../demo/casino-state.ts';

describe("the demo casino's greeting language", () => {
  it("is the first of the browser's languages it speaks, exactly or by language, by weight", () => {
    assert.equal(browserLocale('pt-BR,pt;q=0.9,en;q=0.8'), 'pt-BR');
    assert.equal(browserLocale('pt-PT'), 'pt-BR');
    assert.equal(browserLocale('es-AR,es;q=0.9'), 'es');
    assert.equal(browserLocale('fr-FR,fr;q=0.9,en-US;q=0.8'), 'en');
    assert.equal(browserLocale('en;q=0.2,es;q=0.9'), 'es');
  });

  it('is none when the browser speaks none of its languages, says nothing, or refuses them all', () => {
    assert.equal(browserLocale('fr-FR,de;q=0.5'), null);
    assert.equal(browserLocale(undefined), null);
    assert.equal(browserLocale(''), null);
    assert.equal(browserLocale('*'), null);
    assert.equal(browserLocale('es;q=0'), null);
  });
});

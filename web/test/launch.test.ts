// The iframe address (web/src/launch.ts): read once, the credentials removed from it at import, `path` kept in step;
// the host's mount options in it (theme, header, odds format), and the theme turned into tokens (theme/theme.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ThemeMode } from '../../sdk/protocol.ts';
import { installBrowser } from './helpers/browser.ts';

const browser = installBrowser({
  url: 'https://sportsbook.example/?tenant=tn_1&launch=lt_secret&token=st_secret&locale=pt-BR&height=auto&path=%2Flive&origin=https%3A%2F%2Fcasino.example#top',
});
const { launchParams, rememberPath } = await import('../src/launch.ts');
const { contrast, parseColour, themeTokens } = await import('../src/theme/theme.ts');

/** launch.ts again, read from another address (a module instance of its own). */
async function launchFrom(search: string): Promise<typeof launchParams> {
  browser.location.search = search;
  const fresh = `../src/launch.ts?${encodeURIComponent(search)}`;
  return ((await import(fresh)) as { launchParams: typeof launchParams }).launchParams;
}

it('reads the address once and removes launch and token from it at import', () => {
  assert.deepEqual(launchParams, {
    tenant: 'tn_1',
    launch: 'lt_secret',
    token: 'st_secret',
    path: '/live',
    locale: 'pt-BR',
    height: 'auto',
    origin: 'https://casino.example',
    theme: {},
    header: true,
    oddsFormat: null,
    refused: [],
  });
  assert.deepEqual(browser.replaced, [
    '/?tenant=tn_1&locale=pt-BR&height=auto&path=%2Flive&origin=https%3A%2F%2Fcasino.example#top',
  ]);
  assert.doesNotMatch(browser.location.href, /secret/);
});

it('keeps `path` in the address in step with the page', () => {
  rememberPath('/event/ev_1');
  assert.equal(
    browser.location.search,
    '?tenant=tn_1&locale=pt-BR&height=auto&path=%2Fevent%2Fev_1&origin=https%3A%2F%2Fcasino.example',
  );
  rememberPath('/');
  assert.equal(browser.location.search, '?tenant=tn_1&locale=pt-BR&height=auto&origin=https%3A%2F%2Fcasino.example');
  assert.equal(browser.location.hash, '#top');
  assert.equal(browser.replaced.length, 3);
});

describe('mount options in the address', () => {
  it('reads theme.*, header=false and oddsFormat as the host wrote them', async () => {
    const params = await launchFrom(
      '?tenant=tn_1&theme.primary=%231b6e34&theme.mode=dark&theme.radius=12&theme.shadow=x&header=false&oddsFormat=american',
    );
    assert.deepEqual(
      { theme: params.theme, header: params.header, oddsFormat: params.oddsFormat, refused: params.refused },
      { theme: { primary: '#1b6e34', radius: '12', mode: 'dark' }, header: false, oddsFormat: 'american', refused: [] },
    );
  });

  it('a header or oddsFormat it cannot read is refused, named, and the default holds', async () => {
    const params = await launchFrom('?tenant=tn_1&header=no&oddsFormat=european');
    assert.equal(params.header, true);
    assert.equal(params.oddsFormat, null);
    assert.deepEqual(params.refused, [
      { code: 'invalid_option', field: 'header', message: 'header must be true or false, not "no"' },
      {
        code: 'invalid_option',
        field: 'oddsFormat',
        message: 'oddsFormat must be decimal, fractional, american, not "european"',
      },
    ]);
  });
});

/** The tokens of tokens.css in each mode, as the browser reads them from the root. */
const css = readFileSync(join(import.meta.dirname, '..', '..', 'ui-shared', 'tokens.css'), 'utf8');
function block(selector: string): Map<string, string> {
  const body = css.slice(css.indexOf(`${selector} {`)).split('}')[0]!;
  return new Map([...body.matchAll(/(--bm-[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}
const LIGHT = block(':root');
const DARK = new Map([...LIGHT, ...block(":root[data-mode='dark']")]);
const tokensOf = (mode: ThemeMode) => (token: string) => (mode === 'dark' ? DARK : LIGHT).get(token) ?? '';
const colourOf = (value: string | undefined) => parseColour(value!)!;

describe('the theme', () => {
  it('a colour is #rgb, #rrggbb or rgb(r, g, b) with 0-255 channels; anything else is refused and sets nothing', () => {
    assert.deepEqual(parseColour('#0a7'), [0, 170, 119]);
    assert.deepEqual(parseColour('#0A7A43'), [10, 122, 67]);
    assert.deepEqual(parseColour('rgb(10, 122, 67)'), [10, 122, 67]);
    assert.deepEqual(parseColour('rgb(10 122 67)'), [10, 122, 67]);
    for (const bad of ['red', '#0a7a4', '#0a7a43ff', 'rgb(256, 0, 0)', 'rgba(0, 0, 0, 0.5)', 'rgb(1%, 2%, 3%)', '']) {
      assert.equal(parseColour(bad), null, bad);
    }
    const { properties, refused } = themeTokens({ primary: 'red', accent: 'rgb(0,0,300)' }, tokensOf);
    assert.deepEqual(properties, {});
    assert.deepEqual(refused, [
      {
        code: 'invalid_theme',
        field: 'theme.primary',
        message: 'theme.primary must be #rgb, #rrggbb or rgb(r, g, b), not "red": the default is kept',
      },
      {
        code: 'invalid_theme',
        field: 'theme.accent',
        message: 'theme.accent must be #rgb, #rrggbb or rgb(r, g, b), not "rgb(0,0,300)": the default is kept',
      },
    ]);
  });

  it('a primary that reads on the surfaces is used as it is, with the text colour that reads on it', () => {
    const { properties } = themeTokens({ primary: '#1b6e34' }, tokensOf);
    assert.equal(properties['--bm-color-accent'], '#1b6e34');
    assert.equal(properties['--bm-color-accent-text'], '#ffffff');
  });

  it('a primary too pale (light mode) or too deep (dark mode) to read is shaded until it reads, 4.5:1 on every surface', () => {
    for (const [mode, primary] of [
      ['light', '#ffd400'],
      ['dark', '#3b0a8c'],
    ] as const) {
      const { properties } = themeTokens({ primary, mode }, tokensOf);
      const accent = colourOf(properties['--bm-color-accent']);
      assert.notEqual(properties['--bm-color-accent'], primary);
      for (const under of ['--bm-color-bg', '--bm-color-surface', '--bm-color-surface-2']) {
        assert.ok(contrast(accent, colourOf(tokensOf(mode)(under))) >= 4.5, `${mode}: on ${under}`);
      }
      assert.ok(contrast(accent, colourOf(properties['--bm-color-accent-soft'])) >= 4.5, `${mode}: on its tint`);
      assert.ok(contrast(accent, colourOf(properties['--bm-color-accent-text'])) >= 4.5, `${mode}: its text`);
    }
  });

  it('the header and navigation are a deep shade of the primary, under which their muted text reads', () => {
    const { properties } = themeTokens({ primary: '#ffd400' }, tokensOf);
    const muted = colourOf(LIGHT.get('--bm-color-header-text-muted'));
    for (const name of ['--bm-color-header', '--bm-color-header-2']) {
      assert.ok(contrast(muted, colourOf(properties[name])) >= 4.5, name);
    }
    const [r, g, b] = colourOf(properties['--bm-color-header']);
    assert.ok(r > b && g > b, `a shade of yellow: ${properties['--bm-color-header']}`);
  });

  it('the accent gets the text colour that reads on it, and a hover shade away from that text', () => {
    assert.deepEqual(themeTokens({ accent: '#ffd400' }, tokensOf).properties, {
      '--bm-color-highlight': '#ffd400',
      '--bm-color-highlight-text': '#000000',
      '--bm-color-highlight-hover': '#ffdd33',
    });
    assert.deepEqual(themeTokens({ accent: '#5b21b6' }, tokensOf).properties, {
      '--bm-color-highlight': '#5b21b6',
      '--bm-color-highlight-text': '#ffffff',
      '--bm-color-highlight-hover': '#491a92',
    });
  });

  it("a background must let its mode's muted text read; in dark mode the surfaces and lines come from it", () => {
    assert.deepEqual(themeTokens({ background: '#eef6ea' }, tokensOf).properties, { '--bm-color-bg': '#eef6ea' });
    const dark = themeTokens({ background: '#120a26', mode: 'dark' }, tokensOf).properties;
    assert.equal(dark['--bm-color-bg'], '#120a26');
    assert.equal(dark['--bm-color-surface'], '#1e1631');
    assert.equal(dark['--bm-color-border'], '#383149');
    for (const [mode, background] of [
      ['light', '#556070'],
      ['dark', '#eef6ea'],
    ] as const) {
      const { properties, refused } = themeTokens({ background, mode }, tokensOf);
      assert.deepEqual(properties, {});
      assert.deepEqual(
        refused.map((refusal) => refusal.field),
        ['theme.background'],
      );
    }
  });

  it('the default dark palette is the default dark background with the same derivation', () => {
    const derived = themeTokens({ background: DARK.get('--bm-color-bg')!, mode: 'dark' }, tokensOf).properties;
    for (const [name, value] of Object.entries(derived)) assert.equal(DARK.get(name), value, name);
  });

  it('radius: 0 to 24 px, the smaller and larger radii in proportion; anything else refused', () => {
    assert.deepEqual(themeTokens({ radius: '12' }, tokensOf).properties, {
      '--bm-radius-2xs': '4.5px',
      '--bm-radius-xs': '6px',
      '--bm-radius-sm': '9px',
      '--bm-radius-md': '12px',
      '--bm-radius-lg': '15px',
      '--bm-radius-xl': '21px',
    });
    assert.equal(themeTokens({ radius: '0' }, tokensOf).properties['--bm-radius-xl'], '0px');
    for (const bad of ['24.5', '25', '-1', '1e1', '8px', '']) {
      const { properties, refused } = themeTokens({ radius: bad }, tokensOf);
      assert.deepEqual([properties, refused.map((refusal) => refusal.field)], [{}, ['theme.radius']], bad);
    }
  });

  it('fontFamily: one of the allowed stacks (system is the default); any other name refused', () => {
    assert.match(themeTokens({ fontFamily: 'serif' }, tokensOf).properties['--bm-font-family']!, /^Charter, .*serif$/);
    assert.deepEqual(themeTokens({ fontFamily: 'system' }, tokensOf), { mode: 'light', properties: {}, refused: [] });
    const { properties, refused } = themeTokens({ fontFamily: 'Comic Sans MS' }, tokensOf);
    assert.deepEqual(properties, {});
    assert.equal(
      refused[0]!.message,
      'theme.fontFamily must be system, humanist, geometric, grotesque, rounded, serif, not "Comic Sans MS": the default is kept',
    );
  });

  it('mode: light or dark; anything else is refused and light is kept', () => {
    assert.equal(themeTokens({ mode: 'dark' }, tokensOf).mode, 'dark');
    const { mode, refused } = themeTokens({ mode: 'dim' }, tokensOf);
    assert.equal(mode, 'light');
    assert.deepEqual(
      refused.map((refusal) => refusal.field),
      ['theme.mode'],
    );
  });
});

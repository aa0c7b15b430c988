// The stylesheets' rules (web/src/**/*.css): design tokens live in ui-shared/tokens.css only and every colour,
// space, radius, font, shadow and layer elsewhere is one of them, so that a theme can set the tokens and nothing
// else; each component's stylesheet is imported by the component beside it, after the shared ones (the cascade
// depends on it).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';

const SRC = join(import.meta.dirname, '..', 'src');
const TOKENS = join(import.meta.dirname, '..', '..', 'ui-shared', 'tokens.css');

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

interface Declaration {
  file: string;
  selector: string;
  property: string;
  value: string;
}

/** Every declaration of a stylesheet, with the selector it is under (prettier's layout: one rule per block). */
function declarations(file: string): Declaration[] {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const found: Declaration[] = [];
  for (const block of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selector = block[1]!.trim().replace(/\s+/g, ' ');
    for (const declaration of block[2]!.matchAll(/([\w-]+)\s*:\s*([^;]+);/g)) {
      found.push({ file: relative(SRC, file), selector, property: declaration[1]!, value: declaration[2]!.trim() });
    }
  }
  return found;
}

const files = cssFiles(SRC);
const tokens = new Set(declarations(TOKENS).map((d) => d.property));
const others = files.flatMap(declarations);

const COLOUR =
  /#[0-9a-f]{3,8}\b|\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(|\b(white|black|red|green|blue|gray|grey)\b/i;
/** Properties whose values are design decisions a theme sets: only tokens (and keywords) there. */
const TOKEN_ONLY =
  /^(padding|margin|gap|row-gap|column-gap|border-radius|font-size|font-weight|font-family|line-height|letter-spacing|z-index)(-|$)/;
const KEYWORDS = /^(0|auto|none|inherit|normal)$/;

describe('design tokens', () => {
  it('are declared in ui-shared/tokens.css only, and each one used is declared there', () => {
    assert.ok(tokens.size > 50, `${tokens.size} tokens`);
    for (const token of tokens) assert.match(token, /^--bm-[a-z0-9-]+$/);
    assert.deepEqual(
      others.filter((d) => d.property.startsWith('--')).map((d) => `${d.file}: ${d.property}`),
      [],
    );
    const unknown = others.flatMap((d) =>
      [...d.value.matchAll(/var\((--[\w-]+)/g)].filter((m) => !tokens.has(m[1]!)).map((m) => `${d.file}: ${m[1]}`),
    );
    assert.deepEqual(unknown, []);
  });

  it('are every colour, space, radius, font, shadow and layer of the component stylesheets', () => {
    const literal = others.filter((d) => {
      if (d.selector === '.visually-hidden') return false; // the standard clip pattern, not a design value
      if (COLOUR.test(d.value)) return true;
      if (d.property === 'box-shadow') return !d.value.includes('var(--bm-');
      if (!TOKEN_ONLY.test(d.property)) return false;
      const rest = d.value
        .replace(/calc\(-1 \* var\(--bm-[\w-]+\)\)|var\(--bm-[\w-]+\)|env\([\w-]+\)/g, ' ')
        .trim()
        .split(/\s+/);
      return rest.some((part) => part !== '' && !KEYWORDS.test(part));
    });
    assert.deepEqual(
      literal.map((d) => `${d.file} ${d.selector} { ${d.property}: ${d.value} }`),
      [],
    );
  });
});

describe('dark mode', () => {
  /** Drawn on the header, dark in both modes, or the highlight colour and its text: the same in both modes. */
  const SHARED = new Set([
    '--bm-color-header-text',
    '--bm-color-header-text-muted',
    '--bm-color-header-outline',
    '--bm-color-header-hover',
    '--bm-color-header-divider',
    '--bm-color-highlight',
    '--bm-color-highlight-hover',
    '--bm-color-highlight-text',
  ]);
  const inBlock = (selector: string) =>
    declarations(TOKENS)
      .filter((d) => d.selector === selector)
      .map((d) => d.property);

  it('gives every colour token a value of its own, but those the header and the highlight share', () => {
    const light = inBlock(':root');
    const dark = inBlock(":root[data-mode='dark']");
    assert.deepEqual(
      dark.filter((token) => !light.includes(token)),
      [],
      'only tokens of the light palette',
    );
    assert.deepEqual(
      light.filter((token) => token.startsWith('--bm-color-') && !SHARED.has(token) && !dark.includes(token)),
      [],
    );
  });
});

describe('component stylesheets', () => {
  it('are imported by the component beside them; the theme and the shared pieces first, by main.tsx', () => {
    const main = readFileSync(join(SRC, 'main.tsx'), 'utf8');
    const order = ['../../ui-shared/tokens.css', './theme/base.css', './components/ui.css', './App.tsx'].map((path) =>
      main.indexOf(`from '${path}'`) >= 0 ? main.indexOf(`from '${path}'`) : main.indexOf(`import '${path}'`),
    );
    assert.ok(
      order.every((at) => at >= 0) && order.every((at, i) => i === 0 || at > order[i - 1]!),
      `${order.join(', ')}`,
    );

    const shared = new Set(['theme/base.css', 'components/ui.css']);
    for (const file of files) {
      const name = relative(SRC, file);
      if (shared.has(name)) continue;
      const component = join(dirname(file), `${basename(file, '.css')}.tsx`);
      const source = readFileSync(component, 'utf8');
      assert.ok(source.includes(`import './${basename(file)}';`), `${relative(SRC, component)} imports ${name}`);
    }
  });
});

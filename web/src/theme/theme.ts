/**
 * A host's theme (the `theme.*` mount options, `Theme` in sdk/protocol.ts) turned into design tokens: each value is
 * checked, the tokens that depend on it are derived so that every pair of colours the stylesheets use keeps WCAG AA
 * contrast (4.5:1 for text), and the result is set as custom properties on the document root, over theme/tokens.css.
 * A refused value sets nothing: the token keeps its default and the host is told why.
 */
import {
  THEME_FONTS,
  THEME_MODES,
  THEME_RADIUS_MAX,
  type Theme,
  type ThemeFont,
  type ThemeMode,
} from '../../../sdk/protocol.ts';
import type { LaunchParams, Refusal } from '../launch.ts';

type Rgb = readonly [number, number, number];

/** The stacks behind `fontFamily`: fonts found on the device, never downloaded. `system` is the tokens' default. */
const FONT_STACKS: Record<Exclude<ThemeFont, 'system'>, string> = {
  humanist: "Seravek, 'Gill Sans Nova', Ubuntu, Calibri, 'DejaVu Sans', source-sans-pro, sans-serif",
  geometric: "Avenir, Montserrat, Corbel, 'URW Gothic', source-sans-pro, sans-serif",
  grotesque: "Inter, Roboto, 'Helvetica Neue', 'Arial Nova', 'Nimbus Sans', Arial, sans-serif",
  rounded:
    "ui-rounded, 'Hiragino Maru Gothic ProN', Quicksand, Comfortaa, Manjari, 'Arial Rounded MT', Calibri, sans-serif",
  serif: "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, Georgia, serif",
};

/** The radius tokens as multiples of `radius` (which is `--bm-radius-md`); pills and circles stay round. */
const RADII: Record<string, number> = {
  '--bm-radius-2xs': 3 / 8,
  '--bm-radius-xs': 1 / 2,
  '--bm-radius-sm': 3 / 4,
  '--bm-radius-md': 1,
  '--bm-radius-lg': 5 / 4,
  '--bm-radius-xl': 7 / 4,
};

/**
 * Dark mode's surfaces, lines and tracks as `background` mixed with white (the defaults of tokens.css are these
 * shares of its default background).
 */
const DARK_LAYERS: Record<string, number> = {
  '--bm-color-surface-disabled': 0.04,
  '--bm-color-surface': 0.05,
  '--bm-color-skeleton': 0.08,
  '--bm-color-surface-2': 0.09,
  '--bm-color-odds-disabled-bg': 0.09,
  '--bm-color-skeleton-shine': 0.12,
  '--bm-color-track': 0.13,
  '--bm-color-neutral-bg': 0.13,
  '--bm-color-border': 0.16,
  '--bm-color-border-strong': 0.3,
};

/** Text, and what must be read as well as text (a selected odds button), against what it sits on. */
const TEXT_CONTRAST = 4.5;
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const RGB = /^rgb\(\s*(\d{1,3})(?:\s*,\s*|\s+)(\d{1,3})(?:\s*,\s*|\s+)(\d{1,3})\s*\)$/i;

/** `#rgb`, `#rrggbb` or `rgb(r, g, b)` (also space-separated) with 0-255 channels; null for anything else. */
export function parseColour(text: string): Rgb | null {
  const hex = HEX.exec(text.trim())?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
    return [0, 2, 4].map((at) => parseInt(full.slice(at, at + 2), 16)) as unknown as Rgb;
  }
  const rgb = RGB.exec(text.trim());
  if (!rgb) return null;
  const channels = rgb.slice(1, 4).map(Number);
  return channels.every((channel) => channel <= 255) ? (channels as unknown as Rgb) : null;
}

const hex = (colour: Rgb): string => `#${colour.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

function luminance(colour: Rgb): number {
  const [r, g, b] = colour.map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `a` moved `share` (0-1) of the way to `b`. */
function mix(a: Rgb, b: Rgb, share: number): Rgb {
  return a.map((channel, i) => Math.round(channel + (b[i]! - channel) * share)) as unknown as Rgb;
}

/** The nearest shade of `colour` toward `target` (in twentieths) for which `ok` holds; `target` at the latest. */
function shadeUntil(colour: Rgb, target: Rgb, ok: (shade: Rgb) => boolean): Rgb {
  for (let step = 0; step < 20; step++) {
    const shade = mix(colour, target, step / 20);
    if (ok(shade)) return shade;
  }
  return target;
}

/** White or black, whichever reads better on `colour` (one of them always reaches 4.5:1). */
const textOn = (colour: Rgb): Rgb => (contrast(WHITE, colour) >= contrast(BLACK, colour) ? WHITE : BLACK);

interface Theming {
  mode: ThemeMode;
  /** custom property name → value */
  properties: Record<string, string>;
  refused: Refusal[];
}

/**
 * The tokens a theme sets. `tokensOf(mode)` reads the tokens.css value of a token in that mode (the colours the
 * derivation starts from: surfaces, muted text).
 */
export function themeTokens(
  raw: LaunchParams['theme'],
  tokensOf: (mode: ThemeMode) => (token: string) => string,
): Theming {
  const refused: Refusal[] = [];
  const properties: Record<string, string> = {};
  const refuse = (key: keyof Theme, rule: string) =>
    refused.push({
      code: 'invalid_theme',
      field: `theme.${key}`,
      message: `theme.${key} ${rule}, not "${raw[key]}": the default is kept`,
    });
  const colour = (key: 'primary' | 'accent' | 'background'): Rgb | null => {
    const value = raw[key];
    if (value === undefined) return null;
    const parsed = parseColour(value);
    if (!parsed) refuse(key, 'must be #rgb, #rrggbb or rgb(r, g, b)');
    return parsed;
  };

  let mode: ThemeMode = 'light';
  if (raw.mode !== undefined) {
    if ((THEME_MODES as readonly string[]).includes(raw.mode)) mode = raw.mode as ThemeMode;
    else refuse('mode', `must be ${THEME_MODES.join(' or ')}`);
  }
  const dark = mode === 'dark';
  const token = tokensOf(mode);
  const base = (name: string): Rgb => parseColour(token(name))!;
  // Lighter shades read on dark surfaces, darker ones on light surfaces.
  const away = dark ? WHITE : BLACK;
  const textMuted = base('--bm-color-text-muted');

  let bg = base('--bm-color-bg');
  let surface = base('--bm-color-surface');
  let surface2 = base('--bm-color-surface-2');
  const background = colour('background');
  if (background) {
    // the lightest layer muted text sits on (dark mode) or the page itself (light mode)
    const under = dark ? mix(background, WHITE, DARK_LAYERS['--bm-color-track']!) : background;
    if (contrast(textMuted, under) < TEXT_CONTRAST) {
      refuse('background', `must be ${dark ? 'darker' : 'lighter'} for the text of ${mode} mode to read on it`);
    } else {
      bg = background;
      properties['--bm-color-bg'] = hex(bg);
      if (dark) {
        for (const [name, share] of Object.entries(DARK_LAYERS)) properties[name] = hex(mix(bg, WHITE, share));
        surface = mix(bg, WHITE, DARK_LAYERS['--bm-color-surface']!);
        surface2 = mix(bg, WHITE, DARK_LAYERS['--bm-color-surface-2']!);
      }
    }
  }

  const primary = colour('primary');
  if (primary) {
    const softShare = dark ? 0.2 : 0.12;
    // read as text (links, payouts, the current menu item) on every surface and on its own soft tint
    const accent = shadeUntil(primary, away, (shade) =>
      [bg, surface, surface2, mix(surface, shade, softShare)].every((under) => contrast(shade, under) >= TEXT_CONTRAST),
    );
    properties['--bm-color-accent'] = hex(accent);
    properties['--bm-color-accent-hover'] = hex(mix(accent, away, 0.15));
    properties['--bm-color-accent-text'] = hex(textOn(accent));
    properties['--bm-color-accent-soft'] = hex(mix(surface, accent, softShare));
    properties['--bm-color-accent-border'] = hex(mix(surface, accent, 0.45));
    properties['--bm-color-accent-disabled'] = hex(mix(accent, surface, 0.45));
    // the header and navigation: a deep shade of the primary colour under the header's white and muted text
    const headerMuted = base('--bm-color-header-text-muted');
    const header = shadeUntil(mix(primary, BLACK, dark ? 0.8 : 0.7), BLACK, (shade) => {
      return contrast(headerMuted, mix(shade, WHITE, 0.06)) >= TEXT_CONTRAST;
    });
    properties['--bm-color-header'] = hex(header);
    properties['--bm-color-header-2'] = hex(mix(header, WHITE, 0.06));
  }

  const accent = colour('accent');
  if (accent) {
    const text = textOn(accent);
    properties['--bm-color-highlight'] = hex(accent);
    properties['--bm-color-highlight-text'] = hex(text);
    // away from the text, so the hover state reads at least as well
    properties['--bm-color-highlight-hover'] = hex(mix(accent, text === BLACK ? WHITE : BLACK, 0.2));
  }

  if (raw.radius !== undefined) {
    const radius = /^\d{1,2}(\.\d{1,2})?$/.test(raw.radius) ? Number(raw.radius) : NaN;
    if (radius <= THEME_RADIUS_MAX) {
      for (const [name, share] of Object.entries(RADII)) properties[name] = `${Math.round(radius * share * 2) / 2}px`;
    } else {
      refuse('radius', `must be a number of px from 0 to ${THEME_RADIUS_MAX}`);
    }
  }

  if (raw.fontFamily !== undefined) {
    const font = raw.fontFamily as ThemeFont;
    if (!(THEME_FONTS as readonly string[]).includes(font)) refuse('fontFamily', `must be ${THEME_FONTS.join(', ')}`);
    else if (font !== 'system') properties['--bm-font-family'] = FONT_STACKS[font];
  }
  return { mode, properties, refused };
}

/** Applies the theme of the address to the document root; answers what it refused. */
export function applyTheme(raw: LaunchParams['theme']): Refusal[] {
  const root = document.documentElement;
  const { properties, refused } = themeTokens(raw, (mode) => {
    root.dataset.mode = mode;
    const computed = getComputedStyle(root);
    return (token) => computed.getPropertyValue(token);
  });
  for (const [name, value] of Object.entries(properties)) root.style.setProperty(name, value);
  return refused;
}

/** The languages of the console, each with a catalogue of its own (en.ts, pt-BR.ts, es.ts). */
export const LANGUAGES = ['en', 'pt-BR', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language in its own words: the switch lists them so, for a reader who cannot read the current one. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  'pt-BR': 'Português (Brasil)',
  es: 'Español',
};

/**
 * The console's language for a BCP 47 tag of the browser: any Portuguese is Brazilian Portuguese (the only one
 * written), any Spanish the neutral Latin-American one, English is English; null for any other language.
 */
function languageOf(tag: string): Language | null {
  const primary = tag.toLowerCase().split('-')[0];
  if (primary === 'pt') return 'pt-BR';
  if (primary === 'es') return 'es';
  if (primary === 'en') return 'en';
  return null;
}

/** The first of the browser's languages (in its order of preference) the console speaks; English otherwise. */
export function preferredLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const language = languageOf(tag);
    if (language) return language;
  }
  return 'en';
}

/**
 * Where a language's numbers, money and dates are written as when the browser names no country for it: Spanish as in
 * Latin America (es-419: R$ 1,234.56 is "BRL 1,234.56"), the others as their tag says.
 */
const LOCALES: Record<Language, string> = { en: 'en', 'pt-BR': 'pt-BR', es: 'es-419' };

/**
 * The locale numbers, money and dates are written in: the browser's own country variant of the chosen language when
 * it has one (es-AR, en-GB: the reader's country's conventions), else the language's. Brazilian Portuguese is written
 * as in Brazil even for a reader from Portugal, so that its words and numbers agree.
 */
export function formattingLocale(language: Language, browserTags: readonly string[]): string {
  if (language === 'pt-BR') return LOCALES[language];
  return browserTags.find((tag) => tag.includes('-') && languageOf(tag) === language) ?? LOCALES[language];
}

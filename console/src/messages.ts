import { en, type Messages } from './i18n/en.ts';
import { es } from './i18n/es.ts';
import { formattingLocale, LANGUAGES, preferredLanguage, type Language } from './i18n/languages.ts';
import { ptBR } from './i18n/pt-BR.ts';
import { Value } from './store.ts';

const CATALOGUES: Record<Language, Messages> = { en, 'pt-BR': ptBR, es };

/** Where the staff member's choice is kept: a preference, not a secret (the session token is never stored). */
const STORAGE_KEY = 'bm_console_language';

function remembered(): Language | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return LANGUAGES.find((language) => language === stored) ?? null;
  } catch {
    // storage refused (a private window, a policy): the browser's language stands
    return null;
  }
}

/** The language the console speaks: the staff member's choice, else the browser's. Components follow it. */
export const language = new Value<Language>(remembered() ?? preferredLanguage(navigator.languages));

/**
 * Every word the console shows, in the chosen language (i18n/*.ts). An ES module binding, so reassigning it reaches
 * every `t.…` read by the modules that import it; the console re-renders from the top when `language` changes.
 */
export let t: Messages = CATALOGUES[language.get()];
document.documentElement.lang = language.get();

/** Switches the console's language at once, without a reload (the session lives in memory only), and keeps it. */
export function chooseLanguage(chosen: Language): void {
  t = CATALOGUES[chosen];
  document.documentElement.lang = chosen;
  try {
    localStorage.setItem(STORAGE_KEY, chosen);
  } catch {
    // not kept: the next visit starts from the browser's language again
  }
  language.set(chosen);
}

/** The locale format.ts writes numbers, money and dates in, for the chosen language. */
export function locale(): string {
  return formattingLocale(language.get(), navigator.languages);
}

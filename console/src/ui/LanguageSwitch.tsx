import { useId } from 'preact/hooks';
import { LANGUAGE_NAMES, LANGUAGES } from '../i18n/languages.ts';
import { chooseLanguage, language, t } from '../messages.ts';
import { useValue } from '../store.ts';

/**
 * The staff member's choice of language: the browser's own select (keyboard and screen readers work as everywhere
 * else), each language named in its own words and marked with its `lang`, so it is found whatever the console speaks.
 */
export function LanguageSwitch() {
  const current = useValue(language);
  const id = useId();
  return (
    <span class="language">
      <label for={id} class="visually-hidden">
        {t.language}
      </label>
      <select
        id={id}
        value={current}
        onChange={(event) => {
          const chosen = LANGUAGES.find((option) => option === event.currentTarget.value);
          if (chosen) chooseLanguage(chosen);
        }}
      >
        {LANGUAGES.map((option) => (
          <option value={option} lang={option} key={option}>
            {LANGUAGE_NAMES[option]}
          </option>
        ))}
      </select>
    </span>
  );
}

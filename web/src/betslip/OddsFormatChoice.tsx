import { useId } from 'preact/hooks';
import { ODDS_FORMATS, type OddsFormat } from '../../../sdk/protocol.ts';
import { localeStore, oddsFormat, oddsFormatStore, t } from '../i18n/index.ts';
import { chooseOddsFormat } from '../settings.ts';
import { useStore } from '../store.ts';

/** The odds format, the player's own setting: the locale's (or the casino's) until the player chooses. */
export function OddsFormatChoice() {
  const chosen = useStore(oddsFormatStore);
  useStore(localeStore);
  const id = useId();
  return (
    <div class="odds-format">
      <label for={id}>{t('oddsFormatLabel')}</label>
      <select
        id={id}
        value={chosen ?? oddsFormat()}
        onChange={(event) => chooseOddsFormat(event.currentTarget.value as OddsFormat)}
      >
        {ODDS_FORMATS.map((format) => (
          <option key={format} value={format}>
            {t(`oddsFormat_${format}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

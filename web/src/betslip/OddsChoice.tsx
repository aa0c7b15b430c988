import { useId } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { chooseAcceptance } from '../settings.ts';
import { ODDS_ACCEPTANCES, type OddsAcceptance } from './slip-rules.ts';

/** The player's choice of odds changes, kept with the slip. */
export function OddsChoice({ acceptance }: { acceptance: OddsAcceptance }) {
  const name = useId();
  return (
    <fieldset class="odds-choice">
      <legend>{t('oddsChangesLegend')}</legend>
      <div class="odds-choice-options">
        {ODDS_ACCEPTANCES.map((option) => (
          <label key={option}>
            <input
              type="radio"
              name={name}
              value={option}
              checked={acceptance === option}
              onChange={() => chooseAcceptance(option)}
            />
            <span>{t(`oddsAccept_${option}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

import { useId } from 'preact/hooks';
import { formatOdds, t } from '../i18n/index.ts';
import { combinedOdds, type SlipBet, type SlipError } from './slip-rules.ts';
import { setAccaStakeText } from './slip.ts';
import { SlipMessage } from './SlipMessage.tsx';
import { SlipReturn } from './SlipReturn.tsx';
import { StakeInput } from './StakeInput.tsx';

/** The accumulator of every selection: its combined odds, its stake and what it pays. */
export function Accumulator({ bet, stakeText, failure }: { bet: SlipBet; stakeText: string; failure?: SlipError }) {
  const titleId = useId();
  return (
    <section class="slip-acca" aria-labelledby={titleId}>
      <p class="acca-odds">
        <span id={titleId}>{t('accaLegs', { n: bet.items.length })}</span>
        <strong>{formatOdds(combinedOdds(bet.items.map((item) => item.odds)))}</strong>
      </p>
      <StakeInput value={stakeText} label={t('stake')} onInput={setAccaStakeText} />
      <SlipReturn bet={bet} />
      {failure && <SlipMessage error={failure} />}
    </section>
  );
}

import { money, t } from '../i18n/index.ts';
import { betPayout, type SlipBet } from './slip-rules.ts';

/** What a staked bet pays if it wins; nothing while it has no stake. */
export function SlipReturn({ bet }: { bet: SlipBet }) {
  if (!bet.stake) return null;
  return (
    <p class="slip-return">
      {t('potentialPayout')} <strong>{money(betPayout(bet))}</strong>
    </p>
  );
}

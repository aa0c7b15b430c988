import { refocus } from '../focus.ts';
import { formatOdds, money, t } from '../i18n/index.ts';
import { eventName, selectionLabel, teamsOf } from '../labels.ts';
import type { Bet } from '../types.ts';
import { slipTitle } from './slip-focus.ts';
import { closeReceipt } from './slip.ts';

/** Done or Reuse selections: the receipt goes, the keyboard stays in the slip. */
function leaveReceipt(keepSelections: boolean): void {
  closeReceipt(keepSelections);
  refocus(slipTitle);
}

/** The bets just placed: each with its legs and figures; then Reuse selections, or Done. */
export function Receipt({ bets }: { bets: Bet[] }) {
  return (
    <div class="receipt" role="status" aria-live="polite">
      <p class="receipt-title">
        <span class="tick" aria-hidden="true">
          ✓
        </span>
        {bets.length === 1 ? t('receiptTitle') : t('receiptTitleMany', { n: bets.length })}
      </p>
      {bets.map((bet) => (
        <div class="receipt-bet" key={bet.id}>
          <p class="receipt-kind">{bet.legs.length === 1 ? t('single') : t('accaLegs', { n: bet.legs.length })}</p>
          <ul class="receipt-legs">
            {bet.legs.map((leg) => {
              const [home, away] = teamsOf(leg.eventName);
              return (
                <li key={leg.selectionId}>
                  <span>
                    {selectionLabel(leg.selectionName, home, away)}
                    <small>{eventName(home, away)}</small>
                  </span>
                  <strong>{formatOdds(leg.odds)}</strong>
                </li>
              );
            })}
          </ul>
          <dl class="figures">
            <div>
              <dt>{t('receiptStake')}</dt>
              <dd>{money(bet.stake)}</dd>
            </div>
            <div>
              <dt>{t('odds')}</dt>
              <dd>{formatOdds(bet.odds)}</dd>
            </div>
            <div>
              <dt>{t('potentialPayout')}</dt>
              <dd class="strong">{money(bet.potentialPayout)}</dd>
            </div>
          </dl>
          <p class="receipt-ref">{t('receiptRef', { id: bet.id })}</p>
        </div>
      ))}
      <div class="receipt-actions">
        <button type="button" class="btn secondary" onClick={() => leaveReceipt(true)}>
          {t('reuseSelections')}
        </button>
        <button type="button" class="btn primary" onClick={() => leaveReceipt(false)}>
          {t('done')}
        </button>
      </div>
    </div>
  );
}

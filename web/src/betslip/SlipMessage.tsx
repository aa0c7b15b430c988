import { money, t, type MessageKey } from '../i18n/index.ts';
import { requestDeposit, requireLogin } from '../session.ts';
import type { SlipError } from './slip-rules.ts';

function amountOf(value: unknown): string {
  const amount = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(amount) ? money(amount) : '';
}

/** Why the slip or one of its bets cannot go, in the player's words, and what to do about it when there is a way. */
export function SlipMessage({ error }: { error: SlipError }) {
  const logInButton = (
    <button type="button" class="btn secondary small" onClick={() => requireLogin('login_button')}>
      {t('logIn')}
    </button>
  );
  let text: string;
  let action = null;
  switch (error.code) {
    case 'login':
      text = t('loginPrompt');
      action = logInButton;
      break;
    case 'session':
      text = t('err_session');
      action = logInButton;
      break;
    case 'enter_stake':
      text = t('enterStake');
      break;
    case 'max_selections':
      text = t('maxSelections');
      break;
    case 'insufficient_funds':
      text = t('err_insufficient_funds');
      action = (
        <button type="button" class="btn deposit small" onClick={requestDeposit}>
          {t('deposit')}
        </button>
      );
      break;
    case 'stake_out_of_range':
      text = t('err_stake_out_of_range', {
        min: amountOf(error.details.minStake),
        max: amountOf(error.details.maxStake),
      });
      break;
    case 'payout_above_maximum':
      text = t('err_payout_above_maximum', { max: amountOf(error.details.maxPayout) });
      break;
    case 'odds_changed':
    case 'market_unavailable':
    case 'selection_unavailable':
    case 'wallet_unavailable':
    case 'unavailable':
    case 'payment_rejected':
    case 'exposure_limit':
    case 'account':
    case 'network':
    case 'bet_in_progress':
      text = t(`err_${error.code}` as MessageKey);
      break;
    default:
      text = t('err_generic');
  }
  return (
    <div class={`notice ${error.code === 'enter_stake' ? 'info' : 'error'}`} role="alert" data-code={error.code}>
      <p>{text}</p>
      {action}
    </div>
  );
}

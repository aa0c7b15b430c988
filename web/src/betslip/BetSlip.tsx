import { useId } from 'preact/hooks';
import { Icon } from '../components/icons.tsx';
import { currencySymbol, formatOdds, majorInput, minorDigits, money, t, type MessageKey } from '../i18n/index.ts';
import { eventName, marketLabel, selectionLabel, teamsOf } from '../labels.ts';
import { go } from '../router.ts';
import { requestDeposit, requireLogin, sessionStore } from '../session.ts';
import { useStore } from '../store.ts';
import type { Bet } from '../types.ts';
import {
  acceptOddsChanges,
  accaPossible,
  clearSlip,
  closeReceipt,
  combinedOdds,
  hasOddsChanges,
  payout,
  placeBets,
  removeSelection,
  setAccaStakeText,
  setMode,
  setStakeText,
  slipStore,
  stakeOf,
  type SlipError,
  type SlipItem,
} from './slip.ts';
import './BetSlip.css';

/** Quick stakes in major units of the tenant currency. */
const QUICK_STAKES = [10, 20, 50];

function StakeInput({ value, label, onInput }: { value: string; label: string; onInput: (text: string) => void }) {
  const id = useId();
  const add = (amount: number) => {
    const current = stakeOf(value) ?? 0;
    onInput(majorInput(current + amount * 10 ** minorDigits()));
  };
  return (
    <div class="stake">
      <label for={id} class="stake-label">
        {label}
      </label>
      <div class="stake-field">
        <span class="stake-currency" aria-hidden="true">
          {currencySymbol()}
        </span>
        <input
          id={id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          enterKeyHint="done"
          placeholder={majorInput(0)}
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      </div>
      <div class="quick-stakes">
        {QUICK_STAKES.map((amount) => (
          <button
            key={amount}
            type="button"
            class="chip small"
            aria-label={t('quickStake', { amount: money(amount * 10 ** minorDigits()) })}
            onClick={() => add(amount)}
          >
            +{amount}
          </button>
        ))}
      </div>
    </div>
  );
}

function SlipRow({ item, singles, error }: { item: SlipItem; singles: boolean; error: SlipError | null }) {
  const name = selectionLabel(item.selectionName, item.home, item.away, item.line);
  const moved = item.odds !== item.accepted;
  const up = Number(item.odds) > Number(item.accepted);
  const stake = stakeOf(item.stakeText);
  return (
    <li
      class={`slip-item${item.status !== 'open' ? ' blocked' : ''}${error?.selectionId === item.selectionId ? ' has-error' : ''}`}
    >
      <div class="slip-item-head">
        <div class="slip-item-text">
          <p class="slip-selection">{name}</p>
          <p class="slip-market">{marketLabel(item.marketType, item.line)}</p>
          <p class="slip-event">
            {item.live && <span class="badge live small">{t('liveBadge')}</span>}
            <button type="button" class="link plain" onClick={() => go({ page: 'event', eventId: item.eventId })}>
              {eventName(item.home, item.away)}
            </button>
          </p>
        </div>
        <div class="slip-odds">
          {item.status !== 'open' ? (
            <span class="badge muted">{item.status === 'suspended' ? t('suspended') : t('cancelled')}</span>
          ) : moved ? (
            <span class={`odds-change ${up ? 'up' : 'down'}`}>
              <s aria-label={`${t('odds')} ${formatOdds(item.accepted)}`}>{formatOdds(item.accepted)}</s>
              <Icon name={up ? 'up' : 'down'} size={12} />
              <strong>{formatOdds(item.odds)}</strong>
            </span>
          ) : (
            <strong class="slip-price">{formatOdds(item.odds)}</strong>
          )}
          <button
            type="button"
            class="icon-btn small"
            aria-label={t('removeSelection', { name })}
            onClick={() => removeSelection(item.selectionId)}
          >
            <Icon name="close" size={18} />
          </button>
        </div>
      </div>
      {singles && (
        <div class="slip-item-stake">
          <StakeInput
            value={item.stakeText}
            label={t('stakeFor', { name })}
            onInput={(text) => setStakeText(item.selectionId, text)}
          />
          {stake && (
            <p class="slip-return">
              {t('potentialPayout')} <strong>{money(payout(stake, [item.accepted]))}</strong>
            </p>
          )}
        </div>
      )}
    </li>
  );
}

function money2(value: unknown): string {
  const amount = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(amount) ? money(amount) : '';
}

function SlipMessage({ error }: { error: SlipError }) {
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
      text = t('err_stake_out_of_range', { min: money2(error.details.minStake), max: money2(error.details.maxStake) });
      break;
    case 'payout_above_maximum':
      text = t('err_payout_above_maximum', { max: money2(error.details.maxPayout) });
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

function Receipt({ bets }: { bets: Bet[] }) {
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
        <button type="button" class="btn secondary" onClick={() => closeReceipt(true)}>
          {t('reuseSelections')}
        </button>
        <button type="button" class="btn primary" onClick={() => closeReceipt(false)}>
          {t('done')}
        </button>
      </div>
    </div>
  );
}

/** The bet slip: side column on desktop, a sheet (or, in `auto` height, a page) on phones. */
export function BetSlip({ onClose }: { onClose?: () => void }) {
  const state = useStore(slipStore);
  const session = useStore(sessionStore);
  const { items, mode, receipt, error, placing } = state;
  const acca = mode === 'acca' && accaPossible(items);
  const changes = hasOddsChanges(items);

  const singles = items.map((item) => ({ item, stake: stakeOf(item.stakeText) }));
  const accaStake = stakeOf(state.accaStakeText);
  const totalStake = acca ? (accaStake ?? 0) : singles.reduce((sum, single) => sum + (single.stake ?? 0), 0);
  const totalPayout = acca
    ? accaStake
      ? payout(
          accaStake,
          items.map((item) => item.accepted),
        )
      : 0
    : singles.reduce((sum, single) => sum + (single.stake ? payout(single.stake, [single.item.accepted]) : 0), 0);
  const betCount = acca ? 1 : singles.filter((single) => single.stake).length;
  const sameEvent = items.length >= 2 && !accaPossible(items);

  return (
    <section class="slip" aria-labelledby="slip-title">
      <header class="slip-head">
        <h2 id="slip-title" class="slip-title">
          {t('betSlip')}
          {items.length > 0 && <span class="count">{items.length}</span>}
        </h2>
        {items.length > 0 && (
          <button type="button" class="link" onClick={clearSlip}>
            {t('clearSlip')}
          </button>
        )}
        {onClose && (
          <button type="button" class="icon-btn" aria-label={t('close')} onClick={onClose}>
            <Icon name="close" />
          </button>
        )}
      </header>
      <div class="slip-body">
        {receipt && <Receipt bets={receipt.bets} />}
        {items.length === 0 && !receipt && (
          <div class="slip-empty">
            <Icon name="slip" size={40} />
            <p class="strong">{t('slipEmpty')}</p>
            <p>{t('slipEmptyHint')}</p>
            {error && <SlipMessage error={error} />}
          </div>
        )}
        {items.length > 0 && (
          <>
            {items.length >= 2 && (
              <div class="segmented" role="radiogroup" aria-label={t('betSlip')}>
                <button type="button" role="radio" aria-checked={!acca} onClick={() => setMode('singles')}>
                  {t('singles')}
                </button>
                <button
                  type="button"
                  role="radio"
                  aria-checked={acca}
                  disabled={sameEvent}
                  onClick={() => setMode('acca')}
                >
                  {t('accumulator')}
                </button>
              </div>
            )}
            {sameEvent && <p class="hint">{t('accaSameEvent')}</p>}
            <ul class="slip-items">
              {items.map((item) => (
                <SlipRow key={item.selectionId} item={item} singles={!acca} error={error} />
              ))}
            </ul>
            {acca && (
              <div class="slip-acca">
                <p class="acca-odds">
                  <span>{t('accaLegs', { n: items.length })}</span>
                  <strong>{formatOdds(combinedOdds(items.map((item) => item.accepted)))}</strong>
                </p>
                <StakeInput value={state.accaStakeText} label={t('stake')} onInput={setAccaStakeText} />
              </div>
            )}
            <dl class="figures slip-totals">
              <div>
                <dt>{t('totalStake')}</dt>
                <dd>{money(totalStake)}</dd>
              </div>
              <div>
                <dt>{t('potentialPayout')}</dt>
                <dd class="strong payout">{money(totalPayout)}</dd>
              </div>
            </dl>
            {changes && (
              <p class="notice warn" role="status">
                {t('oddsChangedNote')}
              </p>
            )}
            {error && error.code !== 'odds_changed' && <SlipMessage error={error} />}
            {error?.code === 'odds_changed' && !changes && <SlipMessage error={error} />}
            {changes ? (
              <button type="button" class="btn accept block" onClick={acceptOddsChanges}>
                {t('acceptChanges')}
              </button>
            ) : (
              <button
                type="button"
                class="btn primary block place"
                disabled={placing}
                aria-busy={placing}
                onClick={() => void placeBets()}
              >
                {placing
                  ? t('placing')
                  : !session
                    ? t('logInToBet')
                    : betCount > 1
                      ? t('placeBets', { n: betCount })
                      : t('placeBet')}
                {!placing && session && totalStake > 0 && <span class="place-amount">{money(totalStake)}</span>}
              </button>
            )}
          </>
        )}
      </div>
    </section>
  );
}

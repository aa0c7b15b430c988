import { useId } from 'preact/hooks';
import { refocus } from '../focus.ts';
import { Icon } from '../components/icons.tsx';
import { ODDS_FORMATS, type OddsFormat } from '../../../sdk/protocol.ts';
import {
  currencySymbol,
  formatOdds,
  localeStore,
  majorInput,
  money,
  oddsFormat,
  oddsFormatStore,
  t,
  type MessageKey,
} from '../i18n/index.ts';
import { eventName, marketLabel, selectionLabel, teamsOf } from '../labels.ts';
import { go } from '../router.ts';
import { requestDeposit, requireLogin, sessionStore } from '../session.ts';
import { chooseAcceptance, chooseOddsFormat } from '../settings.ts';
import { useStore } from '../store.ts';
import type { Bet } from '../types.ts';
import {
  ACCA,
  accaPossible,
  betPayout,
  combinedOdds,
  hasOddsChanges,
  ODDS_ACCEPTANCES,
  oddsMilli,
  slipBets,
  slipTotals,
  stakeOf,
  type OddsAcceptance,
  type SlipBet,
  type SlipError,
  type SlipItem,
} from './slip-rules.ts';
import { placeBets } from './slip-placement.ts';
import {
  acceptOddsChanges,
  addQuickStake,
  clearSlip,
  closeReceipt,
  quickStakes,
  quickStakesStore,
  removeSelection,
  setAccaStakeText,
  setStakeText,
  slipStore,
  stakeLimits,
} from './slip.ts';
import './BetSlip.css';

/**
 * The slip's heading, focusable by script only: where the keyboard stays when the control it pressed leaves the slip
 * (a removed selection, the receipt closed), rather than falling to the body and, on a phone, out of the sheet.
 */
const slipTitle = () => document.getElementById('slip-title');

/** Done or Reuse selections: the receipt goes, the keyboard stays in the slip. */
function leaveReceipt(keepSelections: boolean): void {
  closeReceipt(keepSelections);
  refocus(slipTitle);
}

/**
 * Place bet: the button is disabled while the bets go, which drops the focus; then it goes to the receipt's Done, or
 * back to Place bet (or Accept odds changes) when nothing was placed. The receipt and the slip's last button are found
 * by their place in the slip (BetSlip below).
 */
function placeAndRefocus(): void {
  void placeBets().then(() =>
    refocus(() => document.querySelector<HTMLElement>('.slip .receipt-actions .primary, .slip-body > .btn.block')),
  );
}

/** A stake field with its quick stakes: each adds its amount to the stake, within the tenant's stake range. */
function StakeInput({ value, label, onInput }: { value: string; label: string; onInput: (text: string) => void }) {
  const id = useId();
  useStore(quickStakesStore);
  const limits = useStore(stakeLimits);
  const current = stakeOf(value);
  const atMaximum = limits !== null && current !== null && current >= limits.maxStake;
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
      <div class="quick-stakes" role="group" aria-label={t('quickStakes')}>
        {quickStakes().map((amount) => (
          <button
            key={amount}
            type="button"
            class="chip small"
            disabled={atMaximum}
            onClick={() => onInput(majorInput(addQuickStake(current, amount)))}
          >
            +{money(amount)}
          </button>
        ))}
      </div>
    </div>
  );
}

/** The price of a selection: as it is, moved (with its direction), or moved and waiting for the player. */
function Price({ item }: { item: SlipItem }) {
  if (item.status !== 'open') {
    return <span class="badge muted">{item.status === 'suspended' ? t('suspended') : t('slipUnavailable')}</span>;
  }
  if (item.odds !== item.accepted) {
    const up = oddsMilli(item.odds) > oddsMilli(item.accepted);
    return (
      <span class={`odds-change ${up ? 'up' : 'down'}`}>
        <s>{formatOdds(item.accepted)}</s>
        <Icon name={up ? 'up' : 'down'} size={12} />
        <span class="visually-hidden">{t(up ? 'oddsUp' : 'oddsDown')}</span>
        <strong>{formatOdds(item.odds)}</strong>
      </span>
    );
  }
  const move = item.previous === undefined ? null : oddsMilli(item.odds) > oddsMilli(item.previous) ? 'up' : 'down';
  return (
    <strong class={`slip-price${move ? ` ${move}` : ''}`}>
      {move && <Icon name={move} size={12} />}
      {formatOdds(item.odds)}
      {move && <span class="visually-hidden">, {t(move === 'up' ? 'oddsUp' : 'oddsDown')}</span>}
    </strong>
  );
}

function Return({ bet }: { bet: SlipBet }) {
  if (!bet.stake) return null;
  return (
    <p class="slip-return">
      {t('potentialPayout')} <strong>{money(betPayout(bet))}</strong>
    </p>
  );
}

function SlipRow({ bet, error, failure }: { bet: SlipBet; error: SlipError | null; failure?: SlipError }) {
  const item = bet.items[0]!;
  const name = selectionLabel(item.selectionName, item.home, item.away, item.line);
  const flagged = error?.selectionId === item.selectionId || failure !== undefined;
  return (
    <li class={`slip-item${item.status !== 'open' ? ' blocked' : ''}${flagged ? ' has-error' : ''}`}>
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
          <Price item={item} />
          <button
            type="button"
            class="icon-btn small"
            aria-label={t('removeSelection', { name })}
            onClick={() => {
              removeSelection(item.selectionId);
              refocus(slipTitle);
            }}
          >
            <Icon name="close" size={18} />
          </button>
        </div>
      </div>
      <div class="slip-item-stake">
        <StakeInput
          value={item.stakeText}
          label={t('stakeFor', { name })}
          onInput={(text) => setStakeText(item.selectionId, text)}
        />
        <Return bet={bet} />
        {failure && <SlipMessage error={failure} />}
      </div>
    </li>
  );
}

function Accumulator({ bet, stakeText, failure }: { bet: SlipBet; stakeText: string; failure?: SlipError }) {
  const titleId = useId();
  return (
    <section class="slip-acca" aria-labelledby={titleId}>
      <p class="acca-odds">
        <span id={titleId}>{t('accaLegs', { n: bet.items.length })}</span>
        <strong>{formatOdds(combinedOdds(bet.items.map((item) => item.odds)))}</strong>
      </p>
      <StakeInput value={stakeText} label={t('stake')} onInput={setAccaStakeText} />
      <Return bet={bet} />
      {failure && <SlipMessage error={failure} />}
    </section>
  );
}

/** The player's choice of odds changes, kept with the slip. */
function OddsChoice({ acceptance }: { acceptance: OddsAcceptance }) {
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

/** The odds format, the player's own setting: the locale's (or the casino's) until the player chooses. */
function OddsFormatChoice() {
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

function amountOf(value: unknown): string {
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

/** The bet slip: side column on desktop, a sheet (or, in `auto` height, a page) on phones. */
export function BetSlip({ onClose }: { onClose?: () => void }) {
  const state = useStore(slipStore);
  const session = useStore(sessionStore);
  const { items, receipt, error, failed, placing } = state;
  const changes = hasOddsChanges(items);
  const bets = slipBets(state);
  const singles = bets.filter((bet) => bet.key !== ACCA);
  const acca = bets.find((bet) => bet.key === ACCA);
  const totals = slipTotals(state);
  const sameEvent = items.length >= 2 && !accaPossible(items);

  return (
    <section class="slip" aria-labelledby="slip-title">
      <header class="slip-head">
        <h2 id="slip-title" class="slip-title" tabIndex={-1}>
          {t('betSlip')}
          {items.length > 0 && <span class="count">{items.length}</span>}
        </h2>
        {items.length > 0 && (
          <button
            type="button"
            class="link"
            onClick={() => {
              clearSlip();
              refocus(slipTitle);
            }}
          >
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
            {items.length >= 2 && <h3 class="slip-section">{t('singles')}</h3>}
            <ul class="slip-items">
              {singles.map((bet) => (
                <SlipRow key={bet.key} bet={bet} error={error} failure={failed[bet.key]} />
              ))}
            </ul>
            {acca && <Accumulator bet={acca} stakeText={state.accaStakeText} failure={failed[ACCA]} />}
            {sameEvent && <p class="hint">{t('accaSameEvent')}</p>}
            <OddsChoice acceptance={state.acceptance} />
            <OddsFormatChoice />
            <dl class="figures slip-totals">
              <div>
                <dt>{t('totalStake')}</dt>
                <dd>{money(totals.stake)}</dd>
              </div>
              <div>
                <dt>{t('totalPayout')}</dt>
                <dd class="strong payout">{money(totals.payout)}</dd>
              </div>
            </dl>
            {changes && (
              <p class="notice warn" role="status">
                {t('oddsChangedNote')}
              </p>
            )}
            {error && (error.code !== 'odds_changed' || !changes) && <SlipMessage error={error} />}
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
                onClick={placeAndRefocus}
              >
                {placing
                  ? t('placing')
                  : !session
                    ? t('logInToBet')
                    : totals.count > 1
                      ? t('placeBets', { n: totals.count })
                      : t('placeBet')}
                {!placing && session && totals.stake > 0 && (
                  <>
                    {' '}
                    <span class="place-amount">{money(totals.stake)}</span>
                  </>
                )}
              </button>
            )}
          </>
        )}
      </div>
    </section>
  );
}

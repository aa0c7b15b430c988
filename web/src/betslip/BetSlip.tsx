import { Icon } from '../components/icons.tsx';
import { refocus } from '../focus.ts';
import { money, t } from '../i18n/index.ts';
import { sessionStore } from '../session.ts';
import { useStore } from '../store.ts';
import { Accumulator } from './Accumulator.tsx';
import { OddsChoice } from './OddsChoice.tsx';
import { OddsFormatChoice } from './OddsFormatChoice.tsx';
import { Receipt } from './Receipt.tsx';
import { slipTitle } from './slip-focus.ts';
import { placeBets } from './slip-placement.ts';
import { ACCA, accaPossible, hasOddsChanges, slipBets, slipTotals } from './slip-rules.ts';
import { acceptOddsChanges, clearSlip, slipStore } from './slip.ts';
import { SlipMessage } from './SlipMessage.tsx';
import { SlipRow } from './SlipRow.tsx';
import './BetSlip.css';

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

/** The bet slip: side column on desktop, a sheet (or, in `auto` height, a page) on phones. */
export function BetSlip({ onClose }: { onClose?: () => void }) {
  const state = useStore(slipStore);
  const session = useStore(sessionStore);
  const { items, receipt, error, failed, placing } = state;
  // the service holds an in-play bet for its sport's delay: the player is told why it takes a moment
  const delay = Math.max(0, ...items.filter((item) => item.live).map((item) => item.delaySeconds));
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
            {/* the multiple first: on a phone its stake would sit below every single's */}
            {acca && <Accumulator bet={acca} stakeText={state.accaStakeText} failure={failed[ACCA]} />}
            {sameEvent && <p class="hint">{t('accaSameEvent')}</p>}
            {items.length >= 2 && <h3 class="slip-section">{t('singles')}</h3>}
            <ul class="slip-items">
              {singles.map((bet) => (
                <SlipRow key={bet.key} bet={bet} error={error} failure={failed[bet.key]} />
              ))}
            </ul>
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
            {placing && delay > 0 && (
              <p class="notice" role="status">
                {t('inPlayWait', { n: delay })}
              </p>
            )}
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

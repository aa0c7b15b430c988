import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, ApiError, newRequestId } from '../api.ts';
import { showToast } from '../components/Toast.tsx';
import { pageHeading, refocus } from '../focus.ts';
import { currencySymbol, majorInput, money, parseMajor, t, type MessageKey } from '../i18n/index.ts';
import { PAGE_POLL_MS, usePoll } from '../poll.ts';
import type { OffersBody } from '../live-changes.ts';
import { betsVersion, refreshBalance } from '../session.ts';
import { useStore } from '../store.ts';
import { follow, streamState } from '../stream.ts';
import type { Bet, CashOutOffer } from '../types.ts';
import { isOpenBet, noteBet } from '../watch.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type CashOutState =
  | { step: 'offer' }
  | { step: 'confirm'; offer: CashOutOffer; changed?: boolean }
  | { step: 'working'; offer: CashOutOffer }
  | { step: 'done'; amount: number }
  | { step: 'failed'; message: string };

/**
 * Cash-out of an open bet: the live offer (all of the bet, or part of its stake), a confirmation that opens on Cancel,
 * then the outcome; an offer changed meanwhile is confirmed again.
 */
export function CashOut({ bet }: { bet: Bet }) {
  const [partial, setPartial] = useState(false);
  const [stakeText, setStakeText] = useState('');
  const [state, setState] = useState<CashOutState>({ step: 'offer' });
  const inputId = useId();
  // each step replaces the buttons of the one before: the keyboard goes on from the button of the new step
  const cashOutButton = useRef<HTMLButtonElement>(null);
  // the confirmation opens on Cancel, not Confirm: a held Enter must not cash out on its own
  const cancelButton = useRef<HTMLButtonElement>(null);
  const partialStake = partial ? parseMajor(stakeText) : null;
  const validPartial = partialStake !== null && partialStake > 0 && partialStake < bet.remainingStake;
  const stake = partial ? (validPartial ? partialStake : null) : undefined;

  // the offer for the whole remaining stake follows the stream's `offers` topic while it is shown; a partial stake's
  // (and any, while the stream is unavailable, or for a bet the topic does not hold) is read every PAGE_POLL_MS
  const [streamed, setStreamed] = useState<{ offer: CashOutOffer | null } | 'missing' | undefined>(undefined);
  const streaming = useStore(streamState) !== 'polling' && stake === undefined && streamed !== 'missing';
  useEffect(() => {
    if (!streaming) return;
    return follow('offers', ({ state }) => {
      if (!state) return;
      const entry = (state as unknown as OffersBody).offers.find((candidate) => candidate.betId === bet.id);
      // an offer for another stake than the bet's remaining one (a cash-out just made): read over HTTP instead
      const current = entry && (entry.offer === null || entry.offer.stake === bet.remainingStake);
      setStreamed(current ? { offer: entry.offer } : 'missing');
    });
  }, [streaming, bet.id, bet.remainingStake]);
  const offer = usePoll(
    async (signal, background) => {
      if (stake === null) return null;
      if (stake !== undefined) await sleep(300);
      if (signal.aborted) return null;
      return (await api.cashOutOffer(bet.id, stake, background)).offer;
    },
    `${bet.id}:${bet.remainingStake}:${stake ?? 'all'}`,
    PAGE_POLL_MS,
    !streaming,
  );
  const fromStream = streaming && typeof streamed === 'object' ? streamed : undefined;
  const unavailable = streaming
    ? fromStream && fromStream.offer === null
      ? new ApiError(409, 'cashout_unavailable', '')
      : null
    : offer.error instanceof ApiError
      ? offer.error
      : null;

  const accept = async (accepted: CashOutOffer) => {
    setState({ step: 'working', offer: accepted });
    try {
      const { bet: updated } = await api.cashOut(bet.id, {
        requestId: newRequestId('cashout'),
        amount: accepted.amount,
        ...(accepted.stake < bet.remainingStake ? { stake: accepted.stake } : {}),
      });
      setState({ step: 'done', amount: accepted.amount });
      // the card is read again (a full cash-out leaves the list): the keyboard waits on the page's heading
      refocus(pageHeading);
      showToast(t('cashOutDone', { amount: money(accepted.amount) }));
      // a full cash-out closes the bet (bet_settled, and the list reads again); a partial one shows its new stake
      noteBet(updated);
      void refreshBalance();
      if (isOpenBet(updated)) betsVersion.set((version) => version + 1);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'cashout_offer_changed') {
        const next = error.details.offer as CashOutOffer | undefined;
        if (next && typeof next.amount === 'number') {
          setState({ step: 'confirm', offer: next, changed: true });
          refocus(() => cancelButton.current);
          return;
        }
      }
      const key: MessageKey =
        error instanceof ApiError && error.details.reason === 'market_suspended'
          ? 'cashOutSuspended'
          : error instanceof ApiError && error.code === 'cashout_unavailable'
            ? 'cashOutUnavailable'
            : error instanceof ApiError && error.code === 'network'
              ? 'err_network'
              : 'err_generic';
      setState({ step: 'failed', message: t(key) });
      refocus(() => cashOutButton.current);
    }
  };

  if (state.step === 'done') {
    return <p class="notice success">{t('cashOutDone', { amount: money(state.amount) })}</p>;
  }
  if (state.step === 'confirm' || state.step === 'working') {
    const working = state.step === 'working';
    return (
      <div class="cashout">
        {state.step === 'confirm' && state.changed && (
          <p class="notice warn" role="alert">
            {t('cashOutChanged', { amount: money(state.offer.amount) })}
          </p>
        )}
        <div class="cashout-actions">
          <button
            type="button"
            class="btn secondary"
            ref={cancelButton}
            disabled={working}
            onClick={() => {
              setState({ step: 'offer' });
              refocus(() => cashOutButton.current);
            }}
          >
            {t('cancel')}
          </button>
          <button
            type="button"
            class="btn cashout-btn"
            disabled={working}
            aria-busy={working}
            onClick={() => void accept(state.offer)}
          >
            {t('cashOutConfirm', { amount: money(state.offer.amount) })}
          </button>
        </div>
      </div>
    );
  }

  const current = streaming ? (fromStream?.offer ?? undefined) : offer.data;
  return (
    <div class="cashout">
      {state.step === 'failed' && (
        <p class="notice error" role="alert">
          {state.message}
        </p>
      )}
      {unavailable ? (
        <p class="muted small">
          {unavailable.details.reason === 'market_suspended' ? t('cashOutSuspended') : t('cashOutUnavailable')}
        </p>
      ) : (
        <>
          {partial && (
            <div class="stake">
              <label for={inputId} class="stake-label">
                {t('cashOutStake')}{' '}
                <span class="muted">{t('cashOutOfStake', { amount: money(bet.remainingStake) })}</span>
              </label>
              <div class="stake-field">
                <span class="stake-currency" aria-hidden="true">
                  {currencySymbol()}
                </span>
                <input
                  id={inputId}
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder={majorInput(Math.floor(bet.remainingStake / 2))}
                  value={stakeText}
                  onInput={(event) => setStakeText(event.currentTarget.value)}
                />
              </div>
            </div>
          )}
          <div class="cashout-actions">
            <button
              type="button"
              class={`btn secondary${partial ? ' active' : ''}`}
              aria-pressed={partial}
              onClick={() => setPartial(!partial)}
            >
              {t('cashOutPartial')}
            </button>
            <button
              type="button"
              class="btn cashout-btn"
              ref={cashOutButton}
              disabled={!current}
              onClick={() => {
                if (!current) return;
                setState({ step: 'confirm', offer: current });
                refocus(() => cancelButton.current);
              }}
            >
              {current
                ? partial
                  ? t('cashOutPartialOffer', { amount: money(current.amount), stake: money(current.stake) })
                  : t('cashOut', { amount: money(current.amount) })
                : partial && !validPartial
                  ? t('enterStake')
                  : t('cashOutLoading')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}

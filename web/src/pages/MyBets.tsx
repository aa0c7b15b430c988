import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, ApiError, newRequestId } from '../api.ts';
import { Empty, ErrorState, PageHeader, Skeleton, TabPanel, Tabs } from '../components/common.tsx';
import { Icon } from '../components/icons.tsx';
import { showToast } from '../components/Toast.tsx';
import { pageHeading, refocus } from '../focus.ts';
import {
  currencySymbol,
  dateTime,
  formatOdds,
  majorInput,
  money,
  parseMajor,
  signedMoney,
  t,
  type MessageKey,
} from '../i18n/index.ts';
import { eventName, marketNameLabel, selectionLabel, teamsOf } from '../labels.ts';
import { PAGE_POLL_MS, usePoll } from '../poll.ts';
import { go, setPageTitle } from '../router.ts';
import { betsVersion, refreshBalance, requireLogin, sessionStore } from '../session.ts';
import { useStore } from '../store.ts';
import type { Bet, CashOutOffer } from '../types.ts';
import { isOpenBet, noteBet, paidOut, reconcileOpen } from '../watch.ts';
import './MyBets.css';

/** Settled bets are read again every SETTLED_POLL_MS (and whenever a bet changes); open ones every PAGE_POLL_MS. */
const SETTLED_POLL_MS = 30_000;

/** What the bet's wallet movements still owe the player: credits being delivered. */
function owed(bet: Bet): number {
  return bet.movements
    .filter((movement) => movement.direction === 'credit' && movement.status === 'owed')
    .reduce((sum, movement) => sum + movement.amount, 0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type CashOutState =
  | { step: 'offer' }
  | { step: 'confirm'; offer: CashOutOffer; changed?: boolean }
  | { step: 'working'; offer: CashOutOffer }
  | { step: 'done'; amount: number }
  | { step: 'failed'; message: string };

function CashOut({ bet }: { bet: Bet }) {
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

  // live offers: read again every PAGE_POLL_MS while shown (and on stake changes, debounced by the key)
  const offer = usePoll(
    async (signal, background) => {
      if (stake === null) return null;
      if (stake !== undefined) await sleep(300);
      if (signal.aborted) return null;
      return (await api.cashOutOffer(bet.id, stake, background)).offer;
    },
    `${bet.id}:${bet.remainingStake}:${stake ?? 'all'}`,
    PAGE_POLL_MS,
  );
  const unavailable = offer.error instanceof ApiError ? offer.error : null;

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

  const current = offer.data;
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

/** Movement kinds the player is shown by name; any other (a new kind) is shown as a plain movement. */
const MOVEMENT_KINDS = new Set(['bet', 'payout', 'refund', 'cashout', 'resettle', 'rollback']);

/** Each money movement of the bet, in delivery order: what it is, when, whether it is done, and its amount. */
function Movements({ bet }: { bet: Bet }) {
  const titleId = useId();
  if (bet.movements.length === 0) return null;
  return (
    <section class="bet-movements" aria-labelledby={titleId}>
      <h3 id={titleId} class="bet-movements-title">
        {t('movements')}
      </h3>
      <ul>
        {bet.movements.map((movement) => {
          const kind = MOVEMENT_KINDS.has(movement.kind) ? movement.kind : 'other';
          return (
            <li key={movement.txId} class="bet-movement">
              <div>
                <p>{t(`movement_${kind}` as MessageKey)}</p>
                <p class="muted small">
                  <span>{dateTime(movement.at)} · </span>
                  <span class={`movement-status ${movement.status}`}>{t(`movementStatus_${movement.status}`)}</span>
                </p>
              </div>
              <strong class={`movement-amount ${movement.direction}`}>
                {signedMoney(movement.direction === 'debit' ? -movement.amount : movement.amount)}
              </strong>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function statusClass(bet: Bet): string {
  if (bet.status === 'won' || bet.status === 'half_won') return 'won';
  if (bet.status === 'lost' || bet.status === 'half_lost') return 'lost';
  if (bet.status === 'cashed_out' || bet.status === 'partially_cashed_out') return 'cashed';
  return 'neutral';
}

function BetCard({ bet }: { bet: Bet }) {
  const open = isOpenBet(bet);
  const pending = owed(bet);
  const acca = bet.legs.length > 1;
  return (
    <article
      class="card bet-card"
      aria-label={`${bet.legs.length === 1 ? t('single') : t('accaLegs', { n: bet.legs.length })}, ${t(`status_${bet.status}`)}`}
    >
      <header class="bet-head">
        <div>
          <p class="bet-kind">{bet.legs.length === 1 ? t('single') : t('accaLegs', { n: bet.legs.length })}</p>
          <p class="muted small">{t('placedAt', { date: dateTime(bet.placedAt) })}</p>
        </div>
        <span class={`badge status ${statusClass(bet)}`}>{t(`status_${bet.status}`)}</span>
      </header>
      <ul class="bet-legs">
        {bet.legs.map((leg) => {
          const [home, away] = teamsOf(leg.eventName);
          return (
            <li key={leg.selectionId} class="bet-leg">
              <div>
                <p class="strong">{selectionLabel(leg.selectionName, home, away)}</p>
                <p class="muted small">{marketNameLabel(leg.marketName)}</p>
                <button
                  type="button"
                  class="link plain small"
                  onClick={() => go({ page: 'event', eventId: leg.eventId })}
                >
                  {eventName(home, away)}
                </button>
              </div>
              <div class="bet-leg-side">
                <strong>{formatOdds(leg.odds)}</strong>
                {leg.result ? (
                  <span class={`badge leg ${leg.result}`}>{t(`legResult_${leg.result}`)}</span>
                ) : (
                  acca && <span class="badge leg open">{t('legResult_open')}</span>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <dl class="figures">
        <div>
          <dt>{t('stake')}</dt>
          <dd>{money(bet.stake)}</dd>
        </div>
        <div>
          <dt>{t('odds')}</dt>
          <dd>{formatOdds(bet.odds)}</dd>
        </div>
        <div>
          <dt>{open ? t('toReturn') : t('returned')}</dt>
          <dd class="strong">{money(open ? bet.potentialPayout : paidOut(bet))}</dd>
        </div>
      </dl>
      {bet.cashOuts.map((cashOut) => (
        <p class="muted small" key={cashOut.at}>
          {t('cashedOutPart', { amount: money(cashOut.amount), stake: money(cashOut.stake) })}
        </p>
      ))}
      <Movements bet={bet} />
      {pending > 0 && <p class="notice info small">{t('owed', { amount: money(pending) })}</p>}
      {open && <CashOut key={`${bet.id}:${bet.remainingStake}`} bet={bet} />}
    </article>
  );
}

function BetList({ status }: { status: 'open' | 'settled' }) {
  const version = useStore(betsVersion);
  const [more, setMore] = useState<{ bets: Bet[]; cursor?: string; loading: boolean }>({ bets: [], loading: false });
  const first = usePoll(
    async (_signal, background) => {
      const page = await api.bets(status, { background });
      if (status === 'open') await reconcileOpen(page.bets, background).catch(() => undefined);
      else page.bets.forEach(noteBet);
      return page;
    },
    status,
    status === 'open' ? PAGE_POLL_MS : SETTLED_POLL_MS,
  );
  // a bet changed (placed, settled, cashed out): read again, keeping the list on screen meanwhile
  const seenVersion = useRef(version);
  useEffect(() => {
    if (seenVersion.current === version) return;
    seenVersion.current = version;
    first.reload();
  }, [version]);
  const firstCursor = first.data?.nextCursor;
  const reset = useRef(firstCursor);
  useEffect(() => {
    if (reset.current !== firstCursor) {
      reset.current = firstCursor;
      setMore({ bets: [], loading: false });
    }
  }, [firstCursor]);

  if (first.data === undefined && first.error !== undefined) return <ErrorState onRetry={first.reload} />;
  if (first.data === undefined) return <Skeleton rows={3} />;
  const seen = new Set(first.data.bets.map((bet) => bet.id));
  const bets = [...first.data.bets, ...more.bets.filter((bet) => !seen.has(bet.id))];
  const cursor = more.bets.length > 0 ? more.cursor : firstCursor;
  const loadMore = async () => {
    if (!cursor) return;
    setMore((current) => ({ ...current, loading: true }));
    try {
      const page = await api.bets(status, { cursor });
      page.bets.forEach(noteBet);
      setMore((current) => ({ bets: [...current.bets, ...page.bets], cursor: page.nextCursor, loading: false }));
    } catch {
      setMore((current) => ({ ...current, loading: false }));
    }
  };

  if (bets.length === 0) {
    return (
      <section class="card">
        <Empty>{status === 'open' ? t('noOpenBets') : t('noSettledBets')}</Empty>
      </section>
    );
  }
  return (
    <div class="bet-list">
      {bets.map((bet) => (
        <BetCard key={bet.id} bet={bet} />
      ))}
      {cursor && (
        <button type="button" class="btn secondary block" disabled={more.loading} onClick={() => void loadMore()}>
          {t('loadMore')}
        </button>
      )}
    </div>
  );
}

/** My Bets (/my-bets): open and settled bets, what is still owed, cash-out. Anonymous players are sent to log in. */
export function MyBetsPage() {
  const session = useStore(sessionStore);
  const [tab, setTab] = useState<'open' | 'settled'>('open');
  useEffect(() => setPageTitle(t('titleMyBets')));

  if (!session) {
    return (
      <div class="page">
        <PageHeader title={t('myBets')} />
        <section class="card logged-out">
          <Icon name="bets" size={40} />
          <h2>{t('logInForBets')}</h2>
          <p class="muted">{t('logInForBetsHint')}</p>
          <button type="button" class="btn primary" onClick={() => requireLogin('my_bets')}>
            {t('logIn')}
          </button>
        </section>
      </div>
    );
  }
  return (
    <div class="page">
      <PageHeader title={t('myBets')} />
      <Tabs
        label={t('myBets')}
        idPrefix="bets"
        tabs={[
          { id: 'open', label: t('open') },
          { id: 'settled', label: t('settled') },
        ]}
        current={tab}
        onChange={setTab}
      />
      <TabPanel idPrefix="bets" current={tab}>
        <BetList key={`${tab}:${session.player.id}`} status={tab} />
      </TabPanel>
    </div>
  );
}

import type { SettledStatus } from '../../sdk/protocol.ts';
import { api } from './api.ts';
import { post } from './bridge.ts';
import { currencyStore } from './i18n/index.ts';
import type { BetsBody } from './live-changes.ts';
import { betsVersion, loggedIn, refreshBalance, sessionStore, setBalance } from './session.ts';
import { follow, sessionEndedStore, streamState } from './stream.ts';
import type { TopicUpdate } from './stream-topics.ts';
import type { Bet } from './types.ts';

/**
 * Watches the player's open bets for `bet_settled`: while a player is logged in they follow the stream's `bets`
 * topic (its snapshot, each bet that changed, and the balance after each movement); while the stream is
 * unavailable, the open bets are read every OPEN_BETS_POLL_MS while the page is visible. A bet seen open that is no
 * longer open is read on its own and, once it has a result (or was fully cashed out), reported to the host once.
 */
const OPEN_BETS_POLL_MS = 15_000;

const OPEN = new Set(['pending', 'accepted', 'partially_cashed_out']);
const SETTLED: Record<string, SettledStatus> = {
  won: 'won',
  half_won: 'won',
  lost: 'lost',
  half_lost: 'lost',
  void: 'void',
  cashed_out: 'cashed_out',
};

/** Open bets of the current player by id. */
let seenOpen = new Map<string, Bet>();
let timer: ReturnType<typeof setTimeout> | undefined;
let polling = false;
/** The `bets` topic had its snapshot on the live stream: no polling is needed. */
let streamed = false;
let unfollow: (() => void) | undefined;

export function isOpenBet(bet: Bet): boolean {
  return OPEN.has(bet.status);
}

/** What a bet has paid the player so far: its cash-outs and its settled return. */
export function paidOut(bet: Bet): number {
  return bet.cashOuts.reduce((sum, cashOut) => sum + cashOut.amount, 0) + (bet.settledReturn ?? 0);
}

/** Any view of a bet (placement, My Bets, cash-out): open bets are watched, closed ones reported if seen open. */
export function noteBet(bet: Bet): void {
  if (isOpenBet(bet)) {
    seenOpen.set(bet.id, bet);
    return;
  }
  if (!seenOpen.delete(bet.id)) return;
  const status = SETTLED[bet.status];
  if (!status) return;
  post('bet_settled', { betId: bet.id, status, payout: paidOut(bet), currency: bet.currency });
  betsVersion.set((version) => version + 1);
  void refreshBalance();
}

/**
 * A fresh list of the player's open bets (the watcher's, or My Bets'): a bet seen open and missing now is read on
 * its own (with more than one page of open bets it may still be open) and reported when it has settled.
 */
export async function reconcileOpen(bets: Bet[], background = false): Promise<void> {
  const open = new Set(bets.map((bet) => bet.id));
  bets.forEach(noteBet);
  for (const id of [...seenOpen.keys()]) {
    if (open.has(id)) continue;
    const { bet } = await api.bet(id, background);
    noteBet(bet);
  }
}

/** The stream's `bets` topic: its snapshot is reconciled like a read, a changed bet noted, the balance shown. */
function onBets({ change, state }: TopicUpdate): void {
  if (!change) return;
  if (change.type === 'snapshot') {
    streamed = true;
    if (state) void reconcileOpen((state as unknown as BetsBody).bets, true).catch(() => undefined);
    return;
  }
  if (change.type === 'bet') {
    noteBet(change.data.bet);
    // a partial cash-out or money applied: My Bets reads again (a settlement did already in noteBet)
    if (isOpenBet(change.data.bet)) betsVersion.set((version) => version + 1);
    return;
  }
  if (change.type === 'balance') setBalance(change.data.balance, currencyStore.get());
}

function followBets(following: boolean): void {
  unfollow?.();
  unfollow = undefined;
  streamed = false;
  if (following) unfollow = follow('bets', onBets);
}

// the stream says the session is over (idle, expired, ended by the casino): a player read hears the 401, which ends
// it here and tells the host (session_expired), as a poll did
sessionEndedStore.subscribe(() => {
  if (loggedIn()) void api.bets('open', { limit: 1, background: true }).catch(() => undefined);
});

streamState.subscribe((state) => {
  // not live: a stream that comes back sends the snapshot again (or what was missed)
  if (state === 'polling') streamed = false;
});

async function poll(): Promise<void> {
  if (polling || !loggedIn() || document.hidden) return;
  if (streamed && streamState.get() !== 'polling') return;
  polling = true;
  try {
    await reconcileOpen((await api.bets('open', { limit: 50, background: true })).bets, true);
  } catch {
    // the next round tries again; a 401 has ended the session already
  } finally {
    polling = false;
  }
}

function schedule(): void {
  clearTimeout(timer);
  if (!loggedIn()) return;
  timer = setTimeout(() => {
    void poll().finally(schedule);
  }, OPEN_BETS_POLL_MS);
}

/** Starts watching; a new player starts with what is open now. */
export function startWatching(): void {
  let playerId: string | null = null;
  sessionStore.subscribe((session) => {
    const next = session?.player.id ?? null;
    if (next === playerId) return;
    playerId = next;
    seenOpen = new Map();
    followBets(next !== null);
    if (next) void poll().finally(schedule);
    else clearTimeout(timer);
  });
  const initial = sessionStore.get();
  if (initial) {
    playerId = initial.player.id;
    followBets(true);
    void poll().finally(schedule);
  }
  document.addEventListener('visibilitychange', () => {
    if (document.hidden || !loggedIn()) return;
    // back from the casino's cashier or another tab: the balance and bets may have moved
    void refreshBalance();
    void poll();
  });
}

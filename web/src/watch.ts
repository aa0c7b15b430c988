import type { SettledStatus } from '../../sdk/protocol.ts';
import { api } from './api.ts';
import { post } from './bridge.ts';
import { betsVersion, loggedIn, refreshBalance, sessionStore } from './session.ts';
import type { Bet } from './types.ts';

/**
 * Watches the player's open bets for `bet_settled`: every OPEN_BETS_POLL_MS while a player is logged in and the
 * page is visible, the open bets are read; a bet seen open that is no longer open is read on its own and, once it
 * has a result (or was fully cashed out), reported to the host once.
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

async function poll(): Promise<void> {
  if (polling || !loggedIn() || document.hidden) return;
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
    if (next) void poll().finally(schedule);
    else clearTimeout(timer);
  });
  const initial = sessionStore.get();
  if (initial) {
    playerId = initial.player.id;
    void poll().finally(schedule);
  }
  document.addEventListener('visibilitychange', () => {
    if (document.hidden || !loggedIn()) return;
    // back from the casino's cashier or another tab: the balance and bets may have moved
    void refreshBalance();
    void poll();
  });
}

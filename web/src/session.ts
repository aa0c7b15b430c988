import type { LoginReason, SessionEndReason } from '../../sdk/protocol.ts';
import { api, ApiError, setAuthHooks } from './api.ts';
import { post } from './bridge.ts';
import { currencyStore } from './i18n/index.ts';
import { launchParams } from './launch.ts';
import { createStore } from './store.ts';
import type { Player } from './types.ts';

/**
 * The player's session. The session token lives in memory and in this iframe's sessionStorage (one key per
 * tenant) only: never in a URL, a cookie or localStorage. A 401 on a player call ends the session quietly: the
 * host gets `session_expired` and the sportsbook goes on anonymous, with no dialog.
 */
export interface Session {
  token: string;
  player: Player;
}

export const sessionStore = createStore<Session | null>(null);
/** The wallet balance in minor units; null when unknown or when the wallet did not answer (then none is shown). */
export const balanceStore = createStore<number | null>(null);
/** Incremented whenever the player's bets may have changed (placed, settled, cashed out, another player). */
export const betsVersion = createStore(0);

const storageKey = () => `bookmaker.session.${launchParams.tenant ?? ''}`;

function remember(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(storageKey(), token);
    else sessionStorage.removeItem(storageKey());
  } catch {
    // storage blocked (third-party storage partitioning off, private mode): memory only
  }
}

function stored(): string | null {
  try {
    return sessionStorage.getItem(storageKey());
  } catch {
    return null;
  }
}

function token(): string | null {
  return sessionStore.get()?.token ?? null;
}

export function loggedIn(): boolean {
  return sessionStore.get() !== null;
}

function begin(session: Session): void {
  const previous = sessionStore.get();
  remember(session.token);
  if (previous?.player.id !== session.player.id) balanceStore.set(null);
  sessionStore.set(session);
  betsVersion.set((version) => version + 1);
}

/** Forgets the session and tells the host why. */
function end(reason: SessionEndReason): void {
  remember(null);
  sessionStore.set(null);
  balanceStore.set(null);
  betsVersion.set((version) => version + 1);
  post('session_expired', { reason });
}

setAuthHooks({
  token,
  unauthorized(refused) {
    if (token() === refused) end('expired');
  },
});

/** Asks the host to log the player in (reasons: login_button, place_bet, my_bets). */
export function requireLogin(reason: LoginReason): void {
  post('login_required', { reason });
}

export function requestDeposit(): void {
  post('deposit_requested', { currency: currencyStore.get() });
}

function failure(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
}

let exchanging: Promise<unknown> = Promise.resolve();

/**
 * Exchanges a single-use launch token for a session (one exchange at a time). A refused token is reported with
 * `error` (the API's code); when it leaves the player without a session, `session_expired` (launch_failed) follows.
 */
export function exchangeLaunchToken(launchToken: string): Promise<boolean> {
  const run = exchanging.then(async () => {
    try {
      const { token: sessionToken, player } = await api.launch(launchParams.tenant ?? '', launchToken);
      begin({ token: sessionToken, player });
      void refreshBalance();
      return true;
    } catch (error) {
      const refused = failure(error);
      post('error', { code: refused.code, message: refused.message });
      if (!loggedIn()) end('launch_failed');
      return false;
    }
  });
  exchanging = run;
  return run;
}

/**
 * The session at start-up: from `launch` (exchanged), else the deprecated `token` (a session token, checked),
 * else the one this iframe kept in sessionStorage (checked; if it has ended the host hears `expired`).
 */
export async function startSession(): Promise<void> {
  if (launchParams.launch) {
    await exchangeLaunchToken(launchParams.launch);
    return;
  }
  const given = launchParams.token;
  const kept = given ? null : stored();
  const candidate = given ?? kept;
  if (!candidate) return;
  try {
    const { player } = await api.session(candidate);
    begin({ token: candidate, player });
    void refreshBalance();
  } catch (error) {
    const refused = failure(error);
    remember(null);
    if (given) {
      post('error', { code: refused.code, message: refused.message });
      post('session_expired', { reason: 'launch_failed' });
    } else if (refused.status === 401 || refused.status === 403) {
      post('session_expired', { reason: 'expired' });
    }
  }
}

/** Host command `logout`, or the player: ends the session on the server too. Always answered with session_expired. */
export async function logout(): Promise<void> {
  const current = token();
  if (current) {
    try {
      await api.logout(current);
    } catch {
      // already ended, or unreachable: the token is forgotten here either way
    }
  }
  end('logout');
}

let balanceRead: Promise<ApiError | null> | null = null;

/**
 * Reads the wallet balance and tells the host (`balance_changed`); on failure no balance is shown and the failure
 * is returned. Anonymous: nothing to read.
 */
export function refreshBalance(): Promise<ApiError | null> {
  if (!loggedIn()) return Promise.resolve(null);
  balanceRead ??= (async () => {
    try {
      const { balance, currency } = await api.balance();
      setBalance(balance, currency);
      return null;
    } catch (error) {
      balanceStore.set(null);
      return failure(error);
    } finally {
      balanceRead = null;
    }
  })();
  return balanceRead;
}

/** A balance the API gave (a balance read, or with a placed bet): shown, and posted to the host. */
export function setBalance(balance: number, currency: string): void {
  balanceStore.set(balance);
  post('balance_changed', { balance, currency });
}

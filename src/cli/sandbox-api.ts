/**
 * The calls `bookmaker sandbox tour` makes, each over HTTP as a casino's server makes them (the integration key, a
 * player session, the sandbox controls), and why a tour stops.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, defineErrors } from '../platform/errors.ts';

/** Why a tour stopped, each said with what to do next. */
export const tourErrors = defineErrors({
  tour_unreachable: { status: 503, message: 'Bookmaker cannot be reached at --url.' },
  tour_call_refused: { status: 400, message: 'Bookmaker refused a call of the tour.' },
  tour_no_market: {
    status: 409,
    message: 'The catalog has no upcoming match with an open market to bet on: try again later.',
  },
  tour_wallet_silent: { status: 504, message: 'Your wallet has not answered a movement in time.' },
  tour_incomplete: { status: 409, message: 'Not every kind of movement reached your wallet and was applied.' },
});

export interface Settings {
  url: string;
  tenant: string;
  player: string;
  key: string;
  json: boolean;
}

/** A movement as the wallet got it, and what became of it. */
export interface Seen {
  step: string;
  txId: string;
  kind: string;
  direction: string;
  amount: number;
  status: string;
}

/** How long a movement may take to be answered before the tour gives up: the wallet's retries included. */
const ANSWER_WITHIN_MS = 60_000;
const LOOK_EVERY_MS = 250;

interface Leg {
  id: string;
  name: string;
  odds: string;
  eventId: string;
  event: string;
}

/** The calls the tour makes, each over HTTP as a casino's server makes them. */
export class SandboxApi {
  readonly #settings: Settings;
  constructor(settings: Settings) {
    this.#settings = settings;
  }

  async session(): Promise<string> {
    const answer = await this.#call('POST', '/api/v1/integration/sessions', {
      server: true,
      body: { externalPlayerId: this.#settings.player },
    });
    return (answer as { token: string }).token;
  }

  /** A selection of an open main market of a match not yet started (no in-play delay, results decided by us). */
  async upcomingSelection(): Promise<Leg> {
    const { sports } = (await this.#call('GET', '/api/v1/catalog/sports')) as {
      sports: Array<{ id: string; eventCount: number }>;
    };
    for (const sport of sports.filter((entry) => entry.eventCount > 0)) {
      const { competitions } = (await this.#call('GET', `/api/v1/catalog/sports/${sport.id}`)) as SportPage;
      for (const event of competitions.flatMap((competition) => competition.events)) {
        const market = event.mainMarket;
        if (event.status !== 'scheduled' || market?.status !== 'open') continue;
        const selection = market.selections[0]!;
        const name = `${selection.name} (${market.name})`;
        return {
          id: selection.id,
          name,
          odds: selection.odds,
          eventId: event.id,
          event: `${event.home} v ${event.away}`,
        };
      }
    }
    throw tourErrors.tour_no_market();
  }

  /** A 10.00 single at the selection's price now (a trader or a feed may have moved it since the last bet). */
  async place(token: string, leg: Leg, requestId: string): Promise<string> {
    const { event } = (await this.#call('GET', `/api/v1/catalog/events/${leg.eventId}`)) as {
      event: { markets: Array<{ selections: Array<{ id: string; odds: string }> }> };
    };
    const odds = event.markets
      .flatMap((market) => market.selections)
      .find((selection) => selection.id === leg.id)?.odds;
    const answer = (await this.#call('POST', '/api/v1/bets', {
      token,
      body: { requestId, stake: 10_00, legs: [{ selectionId: leg.id, odds: odds ?? leg.odds }] },
    })) as { bet: { id: string } };
    return answer.bet.id;
  }

  /**
   * Cashes out part of the stake at the offer of the moment, as the player's app does: an offer that moved between
   * the read and the cash-out (409 cashout_offer_changed) is read again, a few times.
   */
  async cashOutPart(token: string, betId: string, stake: number, requestId: string): Promise<void> {
    for (let tries = 1; ; tries++) {
      const { offer } = (await this.#call('GET', `/api/v1/bets/${betId}/cashout?stake=${stake}`, { token })) as {
        offer: { amount: number };
      };
      const body = { requestId: `${requestId}-${tries}`, amount: offer.amount, stake };
      try {
        await this.#call('POST', `/api/v1/bets/${betId}/cashout`, { token, body });
        return;
      } catch (error) {
        const moved = error instanceof AppError && error.details?.status === 409 && tries < 3;
        if (!moved) throw error;
      }
    }
  }

  async control(betId: string, control: string, key: string, body: unknown): Promise<void> {
    await this.#call('POST', `/api/v1/integration/sandbox/bets/${betId}/${control}`, { server: true, key, body });
  }

  /** The bet's movements once the wallet has answered each one (none still owed). */
  async settledMovements(betId: string): Promise<Array<Omit<Seen, 'step'>>> {
    return this.#until(`bet ${betId}'s movements`, async () => {
      const { bet } = (await this.#call('GET', `/api/v1/integration/sandbox/bets/${betId}`, { server: true })) as {
        bet: { status: string; movements: Array<Omit<Seen, 'step'>> };
      };
      const waiting = bet.status === 'pending' || bet.movements.some((movement) => movement.status === 'owed');
      return waiting ? undefined : bet.movements;
    });
  }

  async adjust(key: string, direction: 'credit' | 'debit'): Promise<Omit<Seen, 'step'>> {
    const body = { externalPlayerId: this.#settings.player, direction, amount: 1_00, reason: 'sandbox tour' };
    const answer = (await this.#call('POST', '/api/v1/integration/sandbox/adjustments', {
      server: true,
      key,
      body,
    })) as { owed: Array<{ txId: string }> };
    const txId = answer.owed[0]!.txId;
    return this.#until(`${txId}`, async () => {
      const { transaction } = (await this.#call('GET', `/api/v1/integration/transactions/${txId}`, {
        server: true,
      })) as { transaction: { state: string; kind: string; amount: number } };
      if (transaction.state === 'pending') return undefined;
      const status = transaction.state === 'delivered' ? 'applied' : transaction.state;
      return { txId, kind: transaction.kind, direction, amount: transaction.amount, status };
    });
  }

  async #until<T>(what: string, look: () => Promise<T | undefined>): Promise<T> {
    const deadline = performance.now() + ANSWER_WITHIN_MS;
    for (;;) {
      const found = await look();
      if (found !== undefined) return found;
      if (performance.now() > deadline) {
        throw tourErrors.tour_wallet_silent(
          { waitedSeconds: ANSWER_WITHIN_MS / 1000 },
          `${what}: your wallet has not answered within ${ANSWER_WITHIN_MS / 1000} s. Is it running, and does it ` +
            'answer Bookmaker (GET /api/v1/integration/obligations?state=pending lists what waits)?',
        );
      }
      await sleep(LOOK_EVERY_MS);
    }
  }

  async #call(
    method: string,
    path: string,
    options: { server?: boolean; token?: string; key?: string; body?: unknown } = {},
  ): Promise<unknown> {
    const headers: Record<string, string> = {};
    if (options.server)
      Object.assign(headers, { 'x-tenant-id': this.#settings.tenant, 'x-api-key': this.#settings.key });
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.key) headers['idempotency-key'] = options.key;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    let response: Response;
    try {
      response = await fetch(`${this.#settings.url}${path}`, { method, headers, body });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw tourErrors.tour_unreachable(
        { url: this.#settings.url },
        `${this.#settings.url} cannot be reached (${cause?.code ?? cause?.message ?? String(error)}): check --url ` +
          'and that the service runs.',
      );
    }
    const text = await response.text();
    if (!response.ok) {
      throw tourErrors.tour_call_refused(
        { status: response.status },
        `${method} ${path.split('?')[0]} answered ${response.status}: ${text.slice(0, 300)}`,
      );
    }
    return JSON.parse(text) as unknown;
  }
}

type SportPage = {
  competitions: Array<{
    events: Array<{
      id: string;
      home: string;
      away: string;
      status: string;
      mainMarket: {
        name: string;
        status: string;
        selections: Array<{ id: string; name: string; odds: string }>;
      } | null;
    }>;
  }>;
};

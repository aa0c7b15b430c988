import type { CashOut } from '../betting/cashout.ts';
import type { BetView } from '../betting/schemas.ts';
import type { BetViews } from '../betting/views.ts';
import type { SessionPrincipal } from '../platform/http/principals.ts';
import { apply } from './catalog-topics.ts';
import type { Channel } from './channels.ts';
import type { StreamHub } from './hub.ts';

/** Open bets a stream follows at most: My Bets' first page. */
const OPEN_BETS = 50;

interface BetsState {
  /** Each open bet's view as last sent, as JSON. */
  views: Map<string, string>;
  /** The events of the open bets (their prices move the cash-out offers). */
  events: Set<string>;
}

type PlayerTopicsDeps = { hub: StreamHub; views: BetViews; cashOut: CashOut };

/**
 * A player's topics, one channel per player: `bets` (their open bets; a bet whose status, cash-outs or money moved
 * is sent whole, and the balance the wallet confirmed after a movement) and `offers` (the cash-out offer of each
 * open bet, sent when it moves; null when none is offered now).
 */
export class PlayerTopics {
  readonly #deps: PlayerTopicsDeps;

  constructor(deps: PlayerTopicsDeps) {
    this.#deps = deps;
  }

  async read(channel: Channel, session: SessionPrincipal): Promise<{ snapshot: object; state: BetsState }> {
    const { bets } = await this.#deps.views.myBets(session, { status: 'open', limit: OPEN_BETS });
    const events = new Set(bets.flatMap((bet) => bet.legs.map((leg) => leg.eventId)));
    if (channel.topic.kind === 'bets') {
      return {
        snapshot: { bets },
        state: { views: new Map(bets.map((bet) => [bet.id, JSON.stringify(bet)])), events },
      };
    }
    const offers = await Promise.all(
      bets.map(async (bet) => ({ betId: bet.id, offer: await this.#offer(session, bet) })),
    );
    return {
      snapshot: { offers },
      state: { views: new Map(offers.map(({ betId, offer }) => [betId, JSON.stringify(offer)])), events },
    };
  }

  /** The player's bets moved (a status, a cash-out, money applied): each bet that changed is sent whole. */
  async betsChanged(playerId: string, balance: number | undefined): Promise<void> {
    const channel = this.#deps.hub.channel(`bets@${playerId}`);
    const session = sessionOf(channel);
    if (!channel || !session || !channel.state) return;
    const before = channel.state as BetsState;
    const reading = await this.read(channel, session);
    const after = reading.state;
    const changed: BetView[] = [];
    for (const bet of (reading.snapshot as { bets: BetView[] }).bets) {
      if (before.views.get(bet.id) !== after.views.get(bet.id)) changed.push(bet);
    }
    for (const id of before.views.keys()) {
      if (!after.views.has(id)) changed.push(await this.#deps.views.playerBet(session, id));
    }
    const messages: Array<{ type: string; data: object }> = changed.map((bet) => ({ type: 'bet', data: { bet } }));
    if (balance !== undefined) messages.push({ type: 'balance', data: { balance } });
    apply(this.#deps.hub, channel, reading, messages);
  }

  /** Prices of events moved: the offers of the players with open bets on them are priced again. */
  async pricesChanged(eventIds: ReadonlySet<string>): Promise<void> {
    for (const channel of [...this.#deps.hub.channels()]) {
      if (channel.topic.kind !== 'offers' || !channel.state) continue;
      const state = channel.state as BetsState;
      if (![...state.events].some((id) => eventIds.has(id))) continue;
      await this.offersChanged(channel);
    }
  }

  async offersChanged(channel: Channel): Promise<void> {
    const session = sessionOf(channel);
    if (!session || !channel.state) return;
    const before = channel.state as BetsState;
    const reading = await this.read(channel, session);
    const messages = (reading.snapshot as { offers: Array<{ betId: string; offer: unknown }> }).offers
      .filter(({ betId }) => before.views.get(betId) !== reading.state.views.get(betId))
      .map((data) => ({ type: 'offer', data }));
    apply(this.#deps.hub, channel, reading, messages);
  }

  /** The offer for the whole remaining stake, or null when none is offered now (a market suspended, settled). */
  async #offer(session: SessionPrincipal, bet: BetView) {
    try {
      return await this.#deps.cashOut.offer(session, bet.id);
    } catch {
      return null;
    }
  }
}

/** A session of the player's to read as: any of the streams following the channel. */
function sessionOf(channel: Channel | undefined): SessionPrincipal | undefined {
  for (const reader of [...(channel?.readers ?? []), ...(channel?.waiting ?? [])])
    if (reader.session) return reader.session;
  return undefined;
}

/**
 * The live simulator's moves (`bookmaker demo live`, `serve --demo-live`, `npm run demo`): development and demos
 * only. It is a feed producer like any provider's adapter: from what the service holds of the events it prices
 * (`GET /api/v1/feed/events`) it works out the feed messages of this moment, which its client (simulator-client.ts)
 * pushes to `POST /api/v1/feed/messages` from a process of its own.
 */
import { parseMilli } from '../catalog/odds.ts';
import type { FeedMessage, PricedEvent } from '../feed/schemas.ts';
import { matchProfile, type MatchProfile } from './demo-leagues.ts';
import { eventState, kickOff, matchDraws, play, type MatchState } from './match-play.ts';
import type { MatchModel } from './pricing-chances.ts';
import { matchModel, priceOf } from './pricing.ts';

/** How long a trader keeps the markets suspended after a goal or a set. */
const SUSPENDED_FOR_MS = 30_000;
/** The chance, each tick, that a scheduled event's prices move a little (money coming in on one side). */
const PRE_MATCH_MOVE = 0.03;

type MarketRow = PricedEvent['markets'][number];
/** A message about one event, before the producer and the event's next sequence are put on it. */
type Change = FeedMessage extends infer M
  ? M extends { eventId: string }
    ? Omit<M, 'producer' | 'eventId' | 'sequence'>
    : never
  : never;

/**
 * One step of the live simulator at `at`: the messages of producer `producer` about its events. Each event of a
 * sport it knows (soccer, basketball, tennis) is played in real time from its last change to now by its sport's
 * rules (match-play.ts): due events kick off, clocks and periods move on, scores change, matches finish (with their
 * result). Then its markets are priced where the match stands (pricing.ts): suspended for 30 seconds after a goal or
 * a set, closed once decided or over, reopened after. Scheduled events' prices move a little now and then, drawn
 * from `random`. Events of other sports only go live when due. Events in `whole` (or every event, for `all`) are
 * sent whole, as a snapshot: their state and every price, changed or not.
 */
export function simulateLiveTick(
  producer: string,
  events: PricedEvent[],
  at: number,
  random: () => number,
  whole: ReadonlySet<string> | 'all' = new Set(),
): FeedMessage[] {
  const messages: FeedMessage[] = [];
  for (const event of events) {
    const all = whole === 'all' || whole.has(event.eventId);
    let sequence = event.sequence;
    const push = (change: Change) =>
      messages.push({ ...change, producer, eventId: event.eventId, sequence: ++sequence });
    for (const change of eventChanges(event, at, random, all)) push(change);
  }
  return messages;
}

function eventChanges(event: PricedEvent, at: number, random: () => number, all: boolean): Change[] {
  const profile = matchProfile(event.sportId, event.competitionId, event.home, event.away);
  const startsAt = new Date(event.startsAt);
  const due = event.status === 'scheduled' && startsAt.getTime() <= at;
  if (event.status === 'scheduled' && !due) {
    if (!profile || (!all && random() >= PRE_MATCH_MOVE)) return all ? event.markets.map(statusOf) : [];
    const model = matchModel(all ? profile : moved(profile, random() * 2 - 1), scheduled(profile, startsAt), at)!;
    return event.markets.flatMap((market) => prices(market, model, false, at, all));
  }
  if (!profile) return due ? [{ type: 'event_state', status: 'live' }] : [];
  const before = due ? kickOff(profile, startsAt.getTime()) : stateOf(profile, event);
  const { state, breaks } = play(profile, before, at, matchDraws(event.eventId, startsAt));
  const changes: Change[] = [];
  // The final score with the half-time one: its markets settle by rule (a tennis score would need each set's
  // games, which the simulator does not play: a trader settles tennis from the console).
  if (state.status === 'finished' && profile.kind !== 'tennis') {
    const halfTime = halfTimeScore(profile, event.eventId, startsAt, state);
    return [{ type: 'result', score: { ...state.score, halfTime } }];
  }
  if (all || due || changed(before, state)) {
    const { clock, ...rest } = eventState(state, at);
    // A clock is set at kick-off and again only when a period starts or ends: each setting drops a part of a second.
    const clockSet = all || due || state.clock !== before.clock;
    changes.push({ type: 'event_state', ...rest, ...(clockSet ? { clock } : {}) });
  }
  const model = matchModel(profile, state, at);
  if (!model) return changes;
  return [...changes, ...event.markets.flatMap((market) => prices(market, model, breaks > 0, at, all))];
}

/** Periods of the first half: football's, basketball's first two quarters. */
const FIRST_HALF = new Set<string | null>(['first_half', 'quarter_1', 'quarter_2']);

/**
 * The score at half time, found by playing the match again from its kick-off (its draws are the same) to the first
 * moment it is past its first half. Never above the final score, which a match played on from a trader's change
 * may not have followed.
 */
function halfTimeScore(profile: MatchProfile, eventId: string, startsAt: Date, final: MatchState) {
  const draws = matchDraws(eventId, startsAt);
  const kickOffState = kickOff(profile, startsAt.getTime());
  const at = (t: number) => play(profile, kickOffState, t, draws).state;
  let [low, high] = [startsAt.getTime(), final.at];
  while (high - low > 1_000) {
    const middle = Math.floor((low + high) / 2);
    if (FIRST_HALF.has(at(middle).period)) low = middle;
    else high = middle;
  }
  const { score } = at(high);
  return { home: Math.min(score.home, final.score.home), away: Math.min(score.away, final.score.away) };
}

/**
 * A market's status as the simulator set it, sent again in a snapshot: one held for the producer's silence was open
 * as far as the simulator is concerned (the service reopens it when the snapshot is complete).
 */
const statusOf = (market: MarketRow): Change => ({
  type: 'market_status',
  marketId: market.marketId,
  status: market.held ? 'open' : market.status,
});

/**
 * A market's changes: closed once over, suspended at a goal or a set, new prices, reopened after a while. `all`
 * sends every price and the status, changed or not (a snapshot).
 */
function prices(market: MarketRow, model: MatchModel, suspend: boolean, at: number, all: boolean): Change[] {
  const { marketId } = market;
  const line = market.line === null ? null : Number(market.line);
  const chances = model.chances(
    market.marketType,
    line,
    market.prices.map((price) => price.outcome),
  );
  if (chances === undefined) return all ? [statusOf(market)] : [];
  if (chances === null) return [{ type: 'market_status', marketId, status: 'closed' }];
  const changes: Change[] = [];
  if (suspend && market.status === 'open') changes.push({ type: 'market_status', marketId, status: 'suspended' });
  const moved = market.prices.flatMap(({ outcome, odds }) => {
    const now = priceOf(chances.get(outcome)!, market.prices.length);
    return all || parseMilli(now) !== parseMilli(odds) ? [{ outcome, odds: now }] : [];
  });
  if (moved.length > 0) changes.push({ type: 'odds', marketId, prices: moved });
  const reopen = market.status === 'suspended' && !market.held && at - Date.parse(market.updatedAt) >= SUSPENDED_FOR_MS;
  if (!suspend && reopen) changes.push({ type: 'market_status', marketId, status: 'open' });
  else if (all && !suspend) changes.push(statusOf(market));
  return changes;
}

/**
 * A live event as the simulator plays on from it: as of its last change. One put live without a period starts
 * its match then, keeping its score.
 */
function stateOf(profile: MatchProfile, event: PricedEvent): MatchState {
  const score = event.score ?? { home: 0, away: 0 };
  const at = Date.parse(event.updatedAt);
  if (event.period === null) return { ...kickOff(profile, at), score };
  const clock = event.clock && { ...event.clock, setAt: Date.parse(event.clock.setAt) };
  return { status: 'live', period: event.period, score, clock, at };
}

function scheduled(profile: MatchProfile, startsAt: Date): MatchState {
  return { ...kickOff(profile, startsAt.getTime()), status: 'scheduled' };
}

function changed(before: MatchState, after: MatchState): boolean {
  return (
    before.status !== after.status ||
    before.period !== after.period ||
    before.clock !== after.clock ||
    before.score.home !== after.score.home ||
    before.score.away !== after.score.away
  );
}

/** The profile moved towards one side (`toward` from -1, away, to 1, home) by a few percent. */
function moved(profile: MatchProfile, toward: number): MatchProfile {
  switch (profile.kind) {
    case 'football': {
      const { home, away } = profile.goals;
      return { ...profile, goals: { home: home * (1 + 0.05 * toward), away: away * (1 - 0.05 * toward) } };
    }
    case 'basketball': {
      const { home, away } = profile.points;
      return { ...profile, points: { home: home + 1.5 * toward, away: away - 1.5 * toward } };
    }
    case 'tennis':
      return { ...profile, setWin: Math.min(0.95, Math.max(0.05, profile.setWin + 0.02 * toward)) };
  }
}

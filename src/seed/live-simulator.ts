/**
 * The live simulator (`bookmaker demo live`, `serve --demo-live`, `npm run demo`): development and demos only. It
 * changes the catalog through the feed's door (catalog/feed.ts), as a live odds feed would.
 */
import { applyFeedUpdate, type FeedUpdate } from '../catalog/feed.ts';
import { parseMilli } from '../catalog/odds.ts';
import type { CatalogService } from '../catalog/service.ts';
import { AppError } from '../platform/errors.ts';
import { matchProfile, type MatchProfile } from './demo-leagues.ts';
import { eventState, kickOff, matchDraws, play, type MatchState } from './match-play.ts';
import type { MatchModel } from './pricing-chances.ts';
import { matchModel, priceOf } from './pricing.ts';

/** How long a trader keeps the markets suspended after a goal or a set. */
const SUSPENDED_FOR_MS = 30_000;
/** The chance, each tick, that a scheduled event's prices move a little (money coming in on one side). */
const PRE_MATCH_MOVE = 0.03;

type LiveState = Awaited<ReturnType<CatalogService['trading']['liveState']>>;
type EventRow = LiveState['events'][number];
type MarketRow = LiveState['markets'][number];
type SelectionRow = LiveState['selections'][number];

/**
 * One step of the live simulator, at the catalog's time now. Each event of a sport it knows (soccer, basketball,
 * tennis) is played in real time from its last change to now by its sport's rules (match-play.ts): due events
 * kick off, clocks and periods move on, scores change, matches finish. Then its markets are priced where the
 * match stands (pricing.ts): suspended for 30 seconds after a goal or a set, closed once decided or over,
 * reopened after. Scheduled events' prices move a little now and then, drawn from `random`. Events of other sports
 * only go live when due. Answers the number of changes made.
 */
export async function simulateLiveTick(
  catalog: Pick<CatalogService, 'trading'>,
  random: () => number,
): Promise<number> {
  const { now, events, markets, selections } = await catalog.trading.liveState();
  const at = now.getTime();
  const marketsOf = groupBy(markets, (market) => market.event_id);
  const selectionsOf = groupBy(selections, (selection) => selection.market_id);
  const updates: FeedUpdate[] = [];
  for (const event of events) {
    const profile = matchProfile(event.sport_id, event.competition_id, event.home, event.away);
    const due = event.status === 'scheduled' && event.starts_at.getTime() <= at;
    if (event.status === 'scheduled' && !due) {
      if (profile && random() < PRE_MATCH_MOVE) {
        const model = matchModel(moved(profile, random() * 2 - 1), scheduled(profile, event), at)!;
        for (const market of marketsOf.get(event.id) ?? [])
          updates.push(...prices(market, selectionsOf.get(market.id) ?? [], model, false, at));
      }
      continue;
    }
    if (!profile) {
      if (due) updates.push({ type: 'event_state', eventId: event.id, status: 'live' });
      continue;
    }
    const before = due ? kickOff(profile, event.starts_at.getTime()) : stateOf(profile, event);
    const { state, breaks } = play(profile, before, at, matchDraws(event.id, event.starts_at));
    if (due || changed(before, state)) {
      const { clock, ...rest } = eventState(state, at);
      // A clock is set at kick-off and again only when a period starts or ends: each setting drops a part of a second.
      const clockSet = due || state.clock !== before.clock;
      updates.push({ type: 'event_state', eventId: event.id, ...rest, ...(clockSet ? { clock } : {}) });
    }
    const model = matchModel(profile, state, at);
    if (!model) continue;
    for (const market of marketsOf.get(event.id) ?? [])
      updates.push(...prices(market, selectionsOf.get(market.id) ?? [], model, breaks > 0, at));
  }
  let applied = 0;
  for (const update of updates) {
    try {
      await applyFeedUpdate(catalog, update);
      applied++;
    } catch (error) {
      // A trader changed the market meanwhile (closed or settled it): theirs is the last word.
      if (!(error instanceof AppError && error.code === 'market_closed')) throw error;
    }
  }
  return applied;
}

/** A market's changes: closed once over, suspended at a goal or a set, new prices, reopened after a while. */
function prices(
  market: MarketRow,
  selections: SelectionRow[],
  model: MatchModel,
  suspend: boolean,
  at: number,
): FeedUpdate[] {
  const line = market.line_milli === null ? null : market.line_milli / 1000;
  const chances = model.chances(
    market.type,
    line,
    selections.map((selection) => selection.outcome),
  );
  if (chances === undefined) return [];
  if (chances === null) return [{ type: 'market_status', marketId: market.id, status: 'closed' }];
  const updates: FeedUpdate[] = [];
  if (suspend && market.status === 'open')
    updates.push({ type: 'market_status', marketId: market.id, status: 'suspended' });
  for (const selection of selections) {
    const odds = priceOf(chances.get(selection.outcome)!, selections.length);
    if (parseMilli(odds) !== selection.odds_milli) updates.push({ type: 'odds', selectionId: selection.id, odds });
  }
  if (!suspend && market.status === 'suspended' && at - market.updated_at.getTime() >= SUSPENDED_FOR_MS)
    updates.push({ type: 'market_status', marketId: market.id, status: 'open' });
  return updates;
}

/**
 * A live event as the simulator plays on from it: as of its last change. One put live without a period starts
 * its match then, keeping its score.
 */
function stateOf(profile: MatchProfile, event: EventRow): MatchState {
  const score = { home: event.score_home ?? 0, away: event.score_away ?? 0 };
  const at = event.updated_at.getTime();
  if (event.period === null) return { ...kickOff(profile, at), score };
  const clock =
    event.clock_seconds === null || event.clock_running === null || !event.clock_direction || !event.clock_set_at
      ? null
      : {
          seconds: event.clock_seconds,
          running: event.clock_running,
          direction: event.clock_direction,
          setAt: event.clock_set_at.getTime(),
        };
  return { status: 'live', period: event.period, score, clock, at };
}

function scheduled(profile: MatchProfile, event: EventRow): MatchState {
  return { ...kickOff(profile, event.starts_at.getTime()), status: 'scheduled' };
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

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

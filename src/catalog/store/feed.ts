import type { Queryable } from '../../platform/db/database.ts';

/** Events a feed plays or prices: scheduled and live, with their sport. */
export function feedEvents(q: Queryable) {
  return q
    .selectFrom('events')
    .innerJoin('competitions', 'competitions.id', 'events.competition_id')
    .selectAll('events')
    .select('competitions.sport_id')
    .where('events.status', 'in', ['scheduled', 'live'])
    .orderBy('events.starts_at')
    .orderBy('events.id')
    .execute();
}

/** The open and suspended markets of the events scheduled or in play, in their order. */
function feedMarketsQuery(q: Queryable) {
  return q
    .selectFrom('markets')
    .innerJoin('events', 'events.id', 'markets.event_id')
    .where('events.status', 'in', ['scheduled', 'live'])
    .where('markets.status', 'in', ['open', 'suspended']);
}

export function feedMarkets(q: Queryable) {
  return feedMarketsQuery(q)
    .select([
      'markets.id',
      'markets.event_id',
      'markets.type',
      'markets.line_milli',
      'markets.status',
      'markets.updated_at',
    ])
    .orderBy('markets.sort_order')
    .orderBy('markets.id')
    .execute();
}

/** The selections of those markets, in their order. */
export function feedSelections(q: Queryable) {
  return feedMarketsQuery(q)
    .innerJoin('selections', 'selections.market_id', 'markets.id')
    .select(['selections.id', 'selections.market_id', 'selections.outcome', 'selections.odds_milli'])
    .orderBy('selections.sort_order')
    .orderBy('selections.id')
    .execute();
}

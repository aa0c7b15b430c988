import type { Queryable } from '../../platform/db/database.ts';

/**
 * What a feed producer reads back of what it prices (`GET /api/v1/feed/events`): these events while scheduled or in
 * play, with their sport, and the producer's own markets among them that are open or suspended.
 */
export function producerEvents(q: Queryable, eventIds: string[]) {
  if (eventIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('events')
    .innerJoin('competitions', 'competitions.id', 'events.competition_id')
    .selectAll('events')
    .select('competitions.sport_id')
    .where('events.id', 'in', eventIds)
    .where('events.status', 'in', ['scheduled', 'live'])
    .orderBy('events.starts_at')
    .orderBy('events.id')
    .execute();
}

/** The producer's open and suspended markets of these events, in their order. */
function producerMarketsQuery(q: Queryable, producerId: string, eventIds: string[]) {
  return q
    .selectFrom('markets')
    .where('markets.event_id', 'in', eventIds)
    .where('markets.producer_id', '=', producerId)
    .where('markets.status', 'in', ['open', 'suspended']);
}

export function producerMarkets(q: Queryable, producerId: string, eventIds: string[]) {
  if (eventIds.length === 0) return Promise.resolve([]);
  return producerMarketsQuery(q, producerId, eventIds)
    .select([
      'markets.id',
      'markets.event_id',
      'markets.type',
      'markets.line_milli',
      'markets.status',
      'markets.control',
      'markets.held_by_producer',
      'markets.updated_at',
    ])
    .orderBy('markets.sort_order')
    .orderBy('markets.id')
    .execute();
}

/** The selections of those markets, in their order, with the producer's last price where a trader's differs. */
export function producerSelections(q: Queryable, producerId: string, eventIds: string[]) {
  if (eventIds.length === 0) return Promise.resolve([]);
  return producerMarketsQuery(q, producerId, eventIds)
    .innerJoin('selections', 'selections.market_id', 'markets.id')
    .select([
      'selections.id',
      'selections.market_id',
      'selections.outcome',
      'selections.odds_milli',
      'selections.fed_odds_milli',
    ])
    .orderBy('selections.sort_order')
    .orderBy('selections.id')
    .execute();
}

/**
 * The catalog's API records: what players browse, and what a trader's change answers with (the same view, read in
 * the change's transaction).
 */
import type { Queryable } from '../platform/db/database.ts';
import { notFound } from '../platform/errors.ts';
import { formatLine, formatMilli } from './odds.ts';
import type { EventDetail, EventSummary } from './schemas.ts';
import * as eventStore from './store/events.ts';
import * as marketStore from './store/markets.ts';
import * as selectionStore from './store/selections.ts';
import type { EventHeaderRow } from './store/events.ts';
import type { SelectionResult } from './tables.ts';

/** An event with its markets, read inside `q`. */
export async function eventDetail(q: Queryable, eventId: string): Promise<EventDetail> {
  const header = await eventStore.eventHeader(q, eventId);
  if (!header) throw notFound('Event');
  const markets = await marketRecords(q, [eventId]);
  return { ...eventRecord(header), markets: markets.get(eventId) ?? [] };
}

/** The markets of events with their selections, by event id, read inside `q`. */
export async function marketRecords(q: Queryable, eventIds: string[]) {
  const markets = await marketStore.marketsOf(q, eventIds);
  const selections = await selectionStore.selectionsOf(
    q,
    markets.map((market) => market.id),
  );
  const byEvent = new Map<string, EventDetail['markets']>();
  for (const market of markets) {
    const view = {
      id: market.id,
      type: market.type,
      name: market.name,
      line: market.line_milli === null ? null : formatLine(market.line_milli),
      status: market.status,
      settlementVersion: market.settlement_version,
      selections: selections.filter((selection) => selection.market_id === market.id).map(selectionRecord),
    };
    byEvent.set(market.event_id, [...(byEvent.get(market.event_id) ?? []), view]);
  }
  return byEvent;
}

export function eventRecord(row: EventHeaderRow) {
  return {
    id: row.id,
    sport: { id: row.sport_id, name: row.sport_name },
    competition: { id: row.competition_id, name: row.competition_name, country: row.country },
    home: row.home,
    away: row.away,
    startsAt: row.starts_at.toISOString(),
    status: row.status,
    ...liveRecord(row),
    betDelaySeconds: row.status === 'live' ? row.live_delay_seconds : 0,
  };
}

/** Where a live event stands: its score, period and clock. */
export function liveRecord(row: LiveRow) {
  return {
    score: row.score_home === null || row.score_away === null ? null : { home: row.score_home, away: row.score_away },
    period: row.period,
    clock: clockRecord(row),
  };
}

type LiveRow = Pick<
  EventHeaderRow,
  'score_home' | 'score_away' | 'period' | 'clock_seconds' | 'clock_running' | 'clock_direction' | 'clock_set_at'
>;

/** The clock as last set; a reader moves a running clock on by the time since `setAt`. */
function clockRecord(row: LiveRow) {
  if (row.clock_seconds === null || row.clock_running === null || !row.clock_direction || !row.clock_set_at)
    return null;
  return {
    seconds: row.clock_seconds,
    running: row.clock_running,
    direction: row.clock_direction,
    setAt: row.clock_set_at.toISOString(),
  };
}

export function selectionRecord(row: {
  id: string;
  name: string;
  outcome: string;
  odds_milli: number;
  odds_version: number;
  result: SelectionResult | null;
}) {
  return {
    id: row.id,
    name: row.name,
    outcome: row.outcome,
    odds: formatMilli(row.odds_milli),
    oddsVersion: row.odds_version,
    result: row.result,
  };
}

/** Events as the lists show them: each with its number of markets and its first (main) market. */
export async function eventSummaries(q: Queryable, headers: EventHeaderRow[]): Promise<EventSummary[]> {
  const markets = await marketRecords(
    q,
    headers.map((header) => header.id),
  );
  return headers.map((header) => {
    const eventMarkets = markets.get(header.id) ?? [];
    return { ...eventRecord(header), marketCount: eventMarkets.length, mainMarket: eventMarkets[0] ?? null };
  });
}

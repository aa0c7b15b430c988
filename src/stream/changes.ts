/**
 * What changed between two readings of a topic, as the messages a screen applies (pure: test/stream/changes.test.ts).
 * An odds change is one small `odds` message; anything else on a market sends the market whole; a change of the
 * event's own fields sends them; a change a screen cannot patch (a market gone, an event joining or leaving a list,
 * a list reordered) sends the topic's snapshot again.
 */
import type { EventDetail, EventSummary } from '../catalog/schemas.ts';

type Market = EventDetail['markets'][number];
type Selection = Market['selections'][number];

export type Change =
  | { type: 'snapshot' }
  | { type: 'event'; data: { event: Record<string, unknown> } }
  | { type: 'market'; data: { eventId: string; market: Market } }
  | {
      type: 'odds';
      data: { eventId: string; marketId: string; selectionId: string; odds: string; oddsVersion: number };
    };

const SNAPSHOT: Change[] = [{ type: 'snapshot' }];

/** The fields of an event itself (not its markets). */
function header(event: EventDetail | EventSummary): Record<string, unknown> {
  const { id, home, away, startsAt, status, score, period, clock } = event;
  return { id, home, away, startsAt, status, score, period, clock };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A market without its prices: what makes a change more than an odds change. */
function withoutPrices(market: Market) {
  return { ...market, selections: market.selections.map(({ odds: _odds, oddsVersion: _v, ...rest }) => rest) };
}

function oddsChanges(eventId: string, before: Market, after: Market): Change[] {
  const previous = new Map<string, Selection>(before.selections.map((selection) => [selection.id, selection]));
  return after.selections
    .filter((selection) => previous.get(selection.id)?.oddsVersion !== selection.oddsVersion)
    .map((selection) => ({
      type: 'odds' as const,
      data: {
        eventId,
        marketId: after.id,
        selectionId: selection.id,
        odds: selection.odds,
        oddsVersion: selection.oddsVersion,
      },
    }));
}

function marketChanges(eventId: string, before: Market | undefined, after: Market): Change[] {
  if (!before || !same(withoutPrices(before), withoutPrices(after))) {
    return [{ type: 'market', data: { eventId, market: after } }];
  }
  return oddsChanges(eventId, before, after);
}

/** An event page's changes. */
export function eventChanges(before: EventDetail, after: EventDetail): Change[] {
  const previous = new Map(before.markets.map((market) => [market.id, market]));
  const current = new Set(after.markets.map((market) => market.id));
  if ([...previous.keys()].some((id) => !current.has(id))) return SNAPSHOT;
  const changes: Change[] = [];
  if (!same(header(before), header(after))) changes.push({ type: 'event', data: { event: header(after) } });
  for (const market of after.markets) changes.push(...marketChanges(after.id, previous.get(market.id), market));
  return changes;
}

/** A list's changes (the live list, a sport's or a competition's events), its events in the order shown. */
export function listChanges(before: EventSummary[], after: EventSummary[]): Change[] {
  if (
    !same(
      before.map((event) => event.id),
      after.map((event) => event.id),
    )
  )
    return SNAPSHOT;
  const changes: Change[] = [];
  before.forEach((previous, index) => {
    const event = after[index]!;
    const mainBefore = previous.mainMarket;
    const mainAfter = event.mainMarket;
    const onlyPrices =
      same(header(previous), header(event)) &&
      previous.marketCount === event.marketCount &&
      mainBefore?.id === mainAfter?.id &&
      (!mainBefore || !mainAfter || same(withoutPrices(mainBefore), withoutPrices(mainAfter)));
    if (!onlyPrices) changes.push({ type: 'event', data: { event: { ...event } } });
    else if (mainBefore && mainAfter) changes.push(...oddsChanges(event.id, mainBefore, mainAfter));
  });
  return changes;
}

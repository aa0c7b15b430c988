import type { Bet, CashOutOffer, EventDetail, EventSummary, Market, Selection } from './types.ts';

/**
 * What the change stream says, applied to what a screen shows (pure: web/test/live-changes.test.ts). A topic's state
 * is the body of the HTTP read it replaces (its `snapshot`); each later message changes it. A price is taken only
 * when its version is above the one shown, so a screen never shows a price older than one it has shown, whatever
 * order messages, snapshots and reads arrive in.
 */

/** A change message of a catalog or player topic, as the stream sends it (`event:` type and `data:`). */
export type Change =
  | {
      type: 'odds';
      data: { eventId: string; marketId: string; selectionId: string; odds: string; oddsVersion: number };
    }
  | { type: 'market'; data: { eventId: string; market: Market } }
  | { type: 'event'; data: { event: Partial<EventSummary> & { id?: string } } }
  | { type: 'bet'; data: { bet: Bet } }
  | { type: 'offer'; data: { betId: string; offer: CashOutOffer | null } }
  | { type: 'balance'; data: { balance: number } };

/** An event as a topic holds it: the event page's (all its markets) or a list's (its main market). */
type AnyEvent = EventDetail | EventSummary;
/** A topic's state: the snapshot's body with the changes since applied. */
export type TopicBody = Record<string, unknown>;

export interface BetsBody {
  bets: Bet[];
}
export interface OffersBody {
  offers: Array<{ betId: string; offer: CashOutOffer | null }>;
}

/** The selection with the newer of two prices (by oddsVersion; the shown one when equal). */
export function newerOdds<S extends Pick<Selection, 'odds' | 'oddsVersion'>>(
  shown: S,
  odds: string,
  oddsVersion: number,
): S {
  return oddsVersion > shown.oddsVersion ? { ...shown, odds, oddsVersion } : shown;
}

/** A market as it now is, each of its prices kept from the shown market when the shown one is newer. */
export function mergeMarket(shown: Market | null | undefined, next: Market): Market {
  if (!shown || shown.id !== next.id) return next;
  const before = new Map(shown.selections.map((selection) => [selection.id, selection]));
  let kept = false;
  const selections = next.selections.map((selection) => {
    const previous = before.get(selection.id);
    if (!previous || previous.oddsVersion <= selection.oddsVersion) return selection;
    kept = true;
    return { ...selection, odds: previous.odds, oddsVersion: previous.oddsVersion };
  });
  return kept ? { ...next, selections } : next;
}

function withOdds(market: Market, change: Extract<Change, { type: 'odds' }>['data']): Market {
  if (market.id !== change.marketId) return market;
  let moved = false;
  const selections = market.selections.map((selection) => {
    if (selection.id !== change.selectionId) return selection;
    const next = newerOdds(selection, change.odds, change.oddsVersion);
    moved ||= next !== selection;
    return next;
  });
  return moved ? { ...market, selections } : market;
}

function isDetail(event: AnyEvent): event is EventDetail {
  return Array.isArray((event as EventDetail).markets);
}

/** A list's event's main market (none for an event page's event). */
function mainOf(event: AnyEvent): Market | null {
  return 'mainMarket' in event ? event.mainMarket : null;
}

/** One event changed by a catalog message (the same event object when nothing changed). */
function applyToEvent<E extends AnyEvent>(event: E, change: Change): E {
  switch (change.type) {
    case 'odds': {
      if (change.data.eventId !== event.id) return event;
      if (isDetail(event)) {
        const markets = event.markets.map((market) => withOdds(market, change.data));
        return markets.some((market, i) => market !== event.markets[i]) ? { ...event, markets } : event;
      }
      const main = mainOf(event);
      if (!main) return event;
      const next = withOdds(main, change.data);
      return next === main ? event : { ...event, mainMarket: next };
    }
    case 'market': {
      if (change.data.eventId !== event.id) return event;
      const market = change.data.market;
      if (isDetail(event)) {
        const index = event.markets.findIndex((candidate) => candidate.id === market.id);
        if (index < 0) return { ...event, markets: [...event.markets, market] };
        const markets = [...event.markets];
        markets[index] = mergeMarket(event.markets[index], market);
        return { ...event, markets };
      }
      const main = mainOf(event);
      if (!main || main.id !== market.id) return event;
      return { ...event, mainMarket: mergeMarket(main, market) };
    }
    case 'event': {
      const fields = change.data.event;
      if (fields.id !== event.id) return event;
      const merged = { ...event, ...fields } as E;
      if (isDetail(event)) (merged as EventDetail).markets = event.markets;
      else if ('mainMarket' in fields) {
        const shown = mainOf(event);
        const next = fields.mainMarket ?? null;
        (merged as EventSummary).mainMarket = next ? mergeMarket(shown, next) : null;
      }
      return merged;
    }
    default:
      return event;
  }
}

function mapEvents<E extends AnyEvent>(events: E[], change: (event: E) => E): E[] {
  const next = events.map(change);
  return next.some((event, i) => event !== events[i]) ? next : events;
}

/**
 * Every event a catalog topic's body holds, changed: `{ event }` (an event page), `{ events }` (the live list, a
 * competition's page), `{ competitions: [{ events }] }` (a sport's page). The same body when nothing changed.
 */
function mapBodyEvents(body: TopicBody, change: <E extends AnyEvent>(event: E) => E): TopicBody {
  if (body.event && typeof body.event === 'object') {
    const event = change(body.event as EventDetail);
    return event === body.event ? body : { ...body, event };
  }
  if (Array.isArray(body.events)) {
    const events = mapEvents(body.events as EventSummary[], change);
    return events === body.events ? body : { ...body, events };
  }
  if (Array.isArray(body.competitions)) {
    const competitions = body.competitions as Array<{ events: EventSummary[] }>;
    let moved = false;
    const next = competitions.map((competition) => {
      const events = mapEvents(competition.events, change);
      if (events === competition.events) return competition;
      moved = true;
      return { ...competition, events };
    });
    return moved ? { ...body, competitions: next } : body;
  }
  return body;
}

/** A player topic's body changed by a `bet` or `offer` message. */
function applyToPlayer(body: TopicBody, change: Change): TopicBody {
  if (change.type === 'bet' && Array.isArray(body.bets)) {
    const bets = body.bets as Bet[];
    const bet = change.data.bet;
    const open = bet.status === 'pending' || bet.status === 'accepted' || bet.status === 'partially_cashed_out';
    const index = bets.findIndex((candidate) => candidate.id === bet.id);
    if (index < 0) return open ? { ...body, bets: [bet, ...bets] } : body;
    return {
      ...body,
      bets: open ? bets.map((candidate, i) => (i === index ? bet : candidate)) : bets.filter((_, i) => i !== index),
    };
  }
  if (change.type === 'offer' && Array.isArray(body.offers)) {
    const offers = (body as unknown as OffersBody).offers;
    const entry = { betId: change.data.betId, offer: change.data.offer };
    const index = offers.findIndex((candidate) => candidate.betId === entry.betId);
    return { ...body, offers: index < 0 ? [...offers, entry] : offers.map((o, i) => (i === index ? entry : o)) };
  }
  return body;
}

/** A topic's state after a change message (the same object when it changed nothing). */
export function applyChange(body: TopicBody, change: Change): TopicBody {
  if (change.type === 'odds' || change.type === 'market' || change.type === 'event') {
    return mapBodyEvents(body, (event) => applyToEvent(event, change));
  }
  return applyToPlayer(body, change);
}

function eventsById(body: TopicBody): Map<string, AnyEvent> {
  const found = new Map<string, AnyEvent>();
  mapBodyEvents(body, (event) => {
    found.set(event.id, event);
    return event;
  });
  return found;
}

/**
 * A fresh snapshot (or read) over what was shown: prices the shown state holds at a higher version stay (a
 * snapshot encoded before a change that was already applied must not take the price back).
 */
export function keepNewerOdds(shown: TopicBody | undefined, next: TopicBody): TopicBody {
  if (!shown) return next;
  const before = eventsById(shown);
  if (before.size === 0) return next;
  return mapBodyEvents(next, <E extends AnyEvent>(event: E): E => {
    const previous = before.get(event.id);
    if (!previous) return event;
    if (isDetail(event) && isDetail(previous)) {
      const markets = new Map(previous.markets.map((market) => [market.id, market]));
      const merged = event.markets.map((market) => mergeMarket(markets.get(market.id), market));
      return merged.some((market, i) => market !== event.markets[i]) ? { ...event, markets: merged } : event;
    }
    const main = (event as EventSummary).mainMarket;
    const shownMain = (previous as EventSummary).mainMarket;
    if (!main || !shownMain) return event;
    const merged = mergeMarket(shownMain, main);
    return merged === main ? event : { ...event, mainMarket: merged };
  });
}

import type { ComponentChildren } from 'preact';
import { kickOff, t } from '../i18n/index.ts';
import { eventName, marketLabel, shortLabel } from '../labels.ts';
import { go } from '../router.ts';
import type { EventHeader, EventSummary } from '../types.ts';
import { Same, shownWith } from './common.tsx';
import { Icon } from './icons.tsx';
import { LiveState } from './LiveState.tsx';
import { OddsButton } from './OddsButton.tsx';
import './Events.css';

/** The live badge, period and clock, or the kick-off time in the player's time zone. */
export function EventTime({ event }: { event: EventHeader }) {
  if (event.status === 'live') return <LiveState event={event} />;
  if (event.status === 'finished' || event.status === 'cancelled') {
    return <span class="event-time">{t(event.status)}</span>;
  }
  return (
    <span class="event-time">
      <time dateTime={event.startsAt}>{kickOff(event.startsAt)}</time>
    </span>
  );
}

/** A pause for screen readers between parts of a row whose name is its text. */
const Pause = () => <span class="visually-hidden">, </span>;

function TeamLine({ name, score }: { name: string; score: number | null }) {
  return (
    <span class="team">
      <span class="team-name">{name}</span>
      {score !== null && <span class="team-score">{score}</span>}
      <Pause />
    </span>
  );
}

/**
 * One event of a list: teams, time or score, the main market's odds, and the way to all its markets. The row's
 * accessible name is the text it shows, in the order shown (WCAG 2.5.3), with pauses between its parts.
 */
function EventRow({ event, showCompetition = false }: { event: EventSummary; showCompetition?: boolean }) {
  const market = event.mainMarket;
  const name = eventName(event.home, event.away);
  const more = event.marketCount - (market ? 1 : 0);
  const score = event.status === 'live' ? event.score : null;
  return (
    <li class="event-row">
      <button type="button" class="event-link" onClick={() => go({ page: 'event', eventId: event.id })}>
        <span class="event-meta">
          <EventTime event={event} />
          <Pause />
          {showCompetition && (
            <span class="event-competition">
              {event.competition.name}
              <Pause />
            </span>
          )}
        </span>
        <span class="teams">
          <TeamLine name={event.home} score={score?.home ?? null} />
          <TeamLine name={event.away} score={score?.away ?? null} />
        </span>
        {more > 0 && (
          <span class="more-markets">
            {t('moreMarkets', { n: more })}
            <span class="visually-hidden"> {t('moreMarketsHint')}</span>
            <Icon name="chevron" size={14} />
          </span>
        )}
      </button>
      {market && (
        <div
          class={`row-odds n${Math.min(market.selections.length, 3)}`}
          role="group"
          aria-label={`${name}: ${marketLabel(market.type, market.line)}`}
        >
          {market.selections.slice(0, 3).map((selection) => (
            <OddsButton
              key={selection.id}
              selection={selection}
              market={market}
              event={event}
              label={shortLabel(selection, market, event)}
            />
          ))}
        </div>
      )}
    </li>
  );
}

/** Events under a heading (a competition, a section of the home page). */
export function EventGroup({
  title,
  action,
  events,
  showCompetition,
  headingLevel = 2,
  empty,
}: {
  title: ComponentChildren;
  action?: ComponentChildren;
  events: EventSummary[];
  showCompetition?: boolean;
  headingLevel?: 2 | 3;
  /** shown when there are no events */
  empty?: string;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section class="card event-group">
      <header class="card-head">
        <Heading class="card-title">{title}</Heading>
        {action}
      </header>
      {events.length === 0 && empty ? (
        <p class="empty">{empty}</p>
      ) : (
        <ul class="event-list">
          {events.map((event) => (
            <Same
              key={event.id}
              shows={shownWith(event, showCompetition)}
              view={() => <EventRow event={event} showCompetition={showCompetition} />}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Events grouped by competition, in the order they come. */
export function byCompetition(events: EventSummary[]): Array<{ id: string; name: string; events: EventSummary[] }> {
  const groups = new Map<string, { id: string; name: string; events: EventSummary[] }>();
  for (const event of events) {
    const group = groups.get(event.competition.id) ?? {
      id: event.competition.id,
      name: event.competition.name,
      events: [],
    };
    group.events.push(event);
    groups.set(event.competition.id, group);
  }
  return [...groups.values()];
}

import { useEffect } from 'preact/hooks';
import { api } from '../api.ts';
import { byStart, early, feedSlip, readSports, sportsKnown, sportsStore, takeEarly } from '../catalog.ts';
import { ErrorState, Skeleton } from '../components/common.tsx';
import { EventGroup } from '../components/Events.tsx';
import { SearchArea } from '../components/Search.tsx';
import { favouritesStore, loadFavourites } from '../favourites.ts';
import { sessionStore } from '../session.ts';
import { SportChips } from '../components/SportChips.tsx';
import { t } from '../i18n/index.ts';
import { useLive } from '../live-data.ts';
import { usePoll } from '../poll.ts';
import { go, setPageTitle } from '../router.ts';
import { useStore } from '../store.ts';
import type { EventSummary, SportSummary } from '../types.ts';

const LIVE_ON_HOME = 8;
const SOON_ON_HOME = 10;
/** Sports read for "starting soon" (the catalog has no cross-sport upcoming list). */
const SOON_SPORTS = 4;

/** The player's favourite events still to come or live, when there are any; a tap on a star keeps one here. */
function FavouriteEvents() {
  const session = useStore(sessionStore);
  usePoll(async () => (session ? loadFavourites() : null), `home:favourites:${session?.player.id ?? ''}`);
  const favourites = useStore(favouritesStore);
  const events = (favourites?.events ?? [])
    .map((favourite) => favourite.event)
    .filter((event) => event.status === 'scheduled' || event.status === 'live')
    .sort(byStart);
  if (events.length === 0) return null;
  return <EventGroup title={t('favourites')} events={events} showCompetition />;
}

const withUpcoming = (sports: SportSummary[]) =>
  sports.filter((sport) => sport.eventCount > sport.liveCount).slice(0, SOON_SPORTS);

/** The events starting soon of some sports' pages. */
function upcoming(pages: Array<{ competitions: Array<{ events: EventSummary[] }> }>): EventSummary[] {
  const events = pages
    .flatMap((page) => page.competitions.flatMap((competition) => competition.events))
    .filter((event) => event.status === 'scheduled')
    .sort(byStart)
    .slice(0, SOON_ON_HOME);
  return feedSlip(events);
}

/**
 * Home: what is live now and what starts soon, across sports: the `live` topic and the `sport:<id>` topics of the
 * sports with events to come (their HTTP reads every PAGE_POLL_MS while the stream is unavailable).
 */
export function HomePage() {
  const sports = useStore(sportsStore);
  const known = useStore(sportsKnown);
  const live = useLive({
    key: 'home:live',
    topics: ['live'],
    async read(signal) {
      // the sports' counts are read again with the live events
      const [, { events }] = await Promise.all([readSports(), early('live', () => api.live(undefined, signal))]);
      return feedSlip(events);
    },
    view: ([body]) => feedSlip((body as { events: EventSummary[] }).events),
    early: () => takeEarly<{ events: EventSummary[] }>('live')?.then(({ events }) => feedSlip(events)),
  });
  const soon = useLive({
    key: 'home:soon',
    topics: withUpcoming(sports).map((sport) => `sport:${sport.id}`),
    // until the sports are known (start-up reads them), which sports' events to read is not known either
    paused: !known,
    async read(signal) {
      return upcoming(await Promise.all(withUpcoming(sportsStore.get()).map((sport) => api.sport(sport.id, signal))));
    },
    view: (bodies) => upcoming(bodies as unknown as Array<{ competitions: Array<{ events: EventSummary[] }> }>),
  });

  useEffect(() => setPageTitle(t('titleHome')));

  return (
    <div class="page">
      <h1 class="visually-hidden" tabIndex={-1}>
        {t('titleHome')}
      </h1>
      <SearchArea>
        <SportChips />
        {live.data === undefined && live.error !== undefined && <ErrorState onRetry={live.reload} />}
        {live.data === undefined && live.error === undefined && <Skeleton rows={4} />}
        {live.data && (
          <EventGroup
            title={
              <>
                <span class="live-dot" aria-hidden="true" />
                {t('liveNow')}
              </>
            }
            action={
              live.data.length > 0 && (
                <button type="button" class="link" onClick={() => go({ page: 'live' })}>
                  {t('seeAll')}
                </button>
              )
            }
            events={live.data.slice(0, LIVE_ON_HOME)}
            showCompetition
            empty={t('noLive')}
          />
        )}
        <FavouriteEvents />
        {soon.data === undefined && soon.error !== undefined && <ErrorState onRetry={soon.reload} />}
        {soon.data === undefined && soon.error === undefined && live.data && <Skeleton rows={4} />}
        {soon.data && (
          <EventGroup title={t('startingSoon')} events={soon.data} showCompetition empty={t('noUpcoming')} />
        )}
      </SearchArea>
    </div>
  );
}

import { useEffect } from 'preact/hooks';
import { api } from '../api.ts';
import { feedSlip, readSports, sportsStore } from '../catalog.ts';
import { ErrorState, PageHeader, Skeleton } from '../components/common.tsx';
import { byCompetition, EventGroup } from '../components/Events.tsx';
import { SportChips } from '../components/SportChips.tsx';
import { t } from '../i18n/index.ts';
import { sportName } from '../labels.ts';
import { useLive } from '../live-data.ts';
import { setPageTitle } from '../router.ts';
import { useStore } from '../store.ts';
import type { EventSummary } from '../types.ts';

/** In-play events, all or of one sport (/live, /live/{sportId}). */
export function LivePage({ sportId }: { sportId?: string }) {
  const sports = useStore(sportsStore);
  const { data, error, reload } = useLive({
    key: `live:${sportId ?? ''}`,
    topics: ['live'],
    async read(signal) {
      // the sports' counts are read again with the live events
      const [, { events }] = await Promise.all([readSports(), api.live(sportId, signal)]);
      return feedSlip(events);
    },
    // the stream's live list holds every sport: this page's are taken from it
    view([body]) {
      const { events } = body as { events: EventSummary[] };
      return feedSlip(sportId ? events.filter((event) => event.sport.id === sportId) : events);
    },
  });
  const sport = sports.find((candidate) => candidate.id === sportId);
  const title = sport ? `${t('live')} · ${sportName(sport)}` : t('titleLive');
  useEffect(() => {
    if (!sportId || sport) setPageTitle(title);
  });

  return (
    <div class="page">
      <PageHeader title={title} />
      <SportChips live current={sportId} />
      {data === undefined && error !== undefined && <ErrorState onRetry={reload} />}
      {data === undefined && error === undefined && <Skeleton rows={4} />}
      {data && data.length === 0 && (
        <section class="card">
          <p class="empty">{t('noLive')}</p>
        </section>
      )}
      {data &&
        byCompetition(data).map((group) => <EventGroup key={group.id} title={group.name} events={group.events} />)}
    </div>
  );
}

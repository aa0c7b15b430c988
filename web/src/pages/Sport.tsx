import { useEffect } from 'preact/hooks';
import { api } from '../api.ts';
import { feedSlip, isNotFound } from '../catalog.ts';
import { ErrorState, PageHeader, Skeleton } from '../components/common.tsx';
import { EventGroup } from '../components/Events.tsx';
import { Icon } from '../components/icons.tsx';
import { t } from '../i18n/index.ts';
import { sportName } from '../labels.ts';
import { useLive } from '../live-data.ts';
import { go, setPageTitle } from '../router.ts';
import type { ApiResponse } from '../../../ui-shared/api-shapes.ts';

type SportPageData = ApiResponse<'getSport'>;

/** A sport: its competitions and their events (/sport/{sportId}). */
export function SportPage({ sportId }: { sportId: string }) {
  const { data, error, reload } = useLive({
    key: `sport:${sportId}`,
    topics: [`sport:${sportId}`],
    async read(signal) {
      const page = await api.sport(sportId, signal);
      page.competitions.forEach((competition) => feedSlip(competition.events));
      return page;
    },
    view([body]) {
      const page = body as unknown as SportPageData;
      page.competitions.forEach((competition) => feedSlip(competition.events));
      return page;
    },
  });
  useEffect(() => {
    if (data) setPageTitle(sportName(data.sport));
  });

  return (
    <div class="page">
      <PageHeader title={data ? sportName(data.sport) : '\u00a0'} />
      {data === undefined && error !== undefined && (
        <ErrorState
          onRetry={isNotFound(error) ? undefined : reload}
          message={isNotFound(error) ? t('notFound') : undefined}
        />
      )}
      {data === undefined && error === undefined && <Skeleton rows={5} />}
      {data && data.competitions.length === 0 && (
        <section class="card">
          <p class="empty">{t('noEvents')}</p>
        </section>
      )}
      {data?.competitions.map((competition) => (
        <EventGroup
          key={competition.id}
          title={
            <button
              type="button"
              class="title-link"
              onClick={() => go({ page: 'competition', competitionId: competition.id })}
            >
              <span class="country">{competition.country}</span>
              {competition.name}
              <Icon name="chevron" size={16} />
            </button>
          }
          events={competition.events}
        />
      ))}
    </div>
  );
}

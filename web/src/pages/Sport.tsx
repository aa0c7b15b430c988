import { useEffect } from 'preact/hooks';
import { api } from '../api.ts';
import { feedSlip, isNotFound } from '../catalog.ts';
import { ErrorState, PageHeader, Skeleton } from '../components/common.tsx';
import { EventGroup } from '../components/Events.tsx';
import { Icon } from '../components/icons.tsx';
import { t } from '../i18n/index.ts';
import { sportName } from '../labels.ts';
import { usePoll } from '../poll.ts';
import { go, setPageTitle } from '../router.ts';

/** A sport: its competitions and their events (/sport/{sportId}). */
export function SportPage({ sportId }: { sportId: string }) {
  const { data, error, reload } = usePoll(async (signal) => {
    const page = await api.sport(sportId, signal);
    page.competitions.forEach((competition) => feedSlip(competition.events));
    return page;
  }, `sport:${sportId}`);
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

import { useEffect } from 'preact/hooks';
import { api } from '../api.ts';
import { feedSlip, isNotFound } from '../catalog.ts';
import { ErrorState, PageHeader, Skeleton } from '../components/common.tsx';
import { EventGroup } from '../components/Events.tsx';
import { FavouriteButton } from '../components/FavouriteButton.tsx';
import { t } from '../i18n/index.ts';
import { sportName } from '../labels.ts';
import { usePoll } from '../poll.ts';
import { setPageTitle } from '../router.ts';

/** A competition's events (/competition/{competitionId}). */
export function CompetitionPage({ competitionId }: { competitionId: string }) {
  const { data, error, reload } = usePoll(async (signal) => {
    const page = await api.competition(competitionId, signal);
    feedSlip(page.events);
    return page;
  }, `competition:${competitionId}`);
  useEffect(() => {
    if (data) setPageTitle(data.competition.name);
  });

  return (
    <div class="page">
      <PageHeader
        title={data?.competition.name ?? '\u00a0'}
        action={data && <FavouriteButton kind="competitions" id={data.competition.id} name={data.competition.name} />}
        subtitle={data && `${sportName(data.competition.sport)} · ${data.competition.country}`}
      />
      {data === undefined && error !== undefined && (
        <ErrorState
          onRetry={isNotFound(error) ? undefined : reload}
          message={isNotFound(error) ? t('notFound') : undefined}
        />
      )}
      {data === undefined && error === undefined && <Skeleton rows={5} />}
      {data && <EventGroup title={t('matches')} events={data.events} empty={t('noEvents')} />}
    </div>
  );
}

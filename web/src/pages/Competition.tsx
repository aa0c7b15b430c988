import { useEffect } from 'preact/hooks';
import { api } from '../api.ts';
import { feedSlip, isNotFound } from '../catalog.ts';
import { ErrorState, PageHeader, Skeleton } from '../components/common.tsx';
import { EventGroup } from '../components/Events.tsx';
import { FavouriteButton } from '../components/FavouriteButton.tsx';
import { t } from '../i18n/index.ts';
import { sportName } from '../labels.ts';
import { useLive } from '../live-data.ts';
import { setPageTitle } from '../router.ts';
import type { ApiResponse } from '../../../ui-shared/api-shapes.ts';

type CompetitionPageData = ApiResponse<'getCompetition'>;

/** A competition's events (/competition/{competitionId}). */
export function CompetitionPage({ competitionId }: { competitionId: string }) {
  const { data, error, reload } = useLive({
    key: `competition:${competitionId}`,
    topics: [`competition:${competitionId}`],
    async read(signal) {
      const page = await api.competition(competitionId, signal);
      feedSlip(page.events);
      return page;
    },
    view([body]) {
      const page = body as unknown as CompetitionPageData;
      feedSlip(page.events);
      return page;
    },
  });
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

import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Empty, ErrorState, Skeleton } from '../components/common.tsx';
import { t } from '../i18n/index.ts';
import { PAGE_POLL_MS, usePoll } from '../poll.ts';
import { betsVersion } from '../session.ts';
import { streamState } from '../stream.ts';
import { useStore } from '../store.ts';
import type { Bet } from '../types.ts';
import { noteBet, reconcileOpen } from '../watch.ts';
import { BetCard } from './BetCard.tsx';

/**
 * While the change stream is live, a list is read again whenever a bet changes (the `bets` topic, watch.ts);
 * otherwise also settled bets every SETTLED_POLL_MS and open ones every PAGE_POLL_MS.
 */
const SETTLED_POLL_MS = 30_000;

/** A tab of My Bets: the open or the settled bets, page by page, read again while shown and when a bet changes. */
export function BetList({ status }: { status: 'open' | 'settled' }) {
  const version = useStore(betsVersion);
  const live = useStore(streamState) === 'live';
  const [more, setMore] = useState<{ bets: Bet[]; cursor?: string; loading: boolean }>({ bets: [], loading: false });
  const first = usePoll(
    async (_signal, background) => {
      const page = await api.bets(status, { background });
      if (status === 'open') await reconcileOpen(page.bets, background).catch(() => undefined);
      else page.bets.forEach(noteBet);
      return page;
    },
    status,
    live ? null : status === 'open' ? PAGE_POLL_MS : SETTLED_POLL_MS,
  );
  // a bet changed (placed, settled, cashed out): read again, keeping the list on screen meanwhile
  const seenVersion = useRef(version);
  useEffect(() => {
    if (seenVersion.current === version) return;
    seenVersion.current = version;
    first.reload();
  }, [version]);
  const firstCursor = first.data?.nextCursor;
  const reset = useRef(firstCursor);
  useEffect(() => {
    if (reset.current !== firstCursor) {
      reset.current = firstCursor;
      setMore({ bets: [], loading: false });
    }
  }, [firstCursor]);

  if (first.data === undefined && first.error !== undefined) return <ErrorState onRetry={first.reload} />;
  if (first.data === undefined) return <Skeleton rows={3} />;
  const seen = new Set(first.data.bets.map((bet) => bet.id));
  const bets = [...first.data.bets, ...more.bets.filter((bet) => !seen.has(bet.id))];
  const cursor = more.bets.length > 0 ? more.cursor : firstCursor;
  const loadMore = async () => {
    if (!cursor) return;
    setMore((current) => ({ ...current, loading: true }));
    try {
      const page = await api.bets(status, { cursor });
      page.bets.forEach(noteBet);
      setMore((current) => ({ bets: [...current.bets, ...page.bets], cursor: page.nextCursor, loading: false }));
    } catch {
      setMore((current) => ({ ...current, loading: false }));
    }
  };

  if (bets.length === 0) {
    return (
      <section class="card">
        <Empty>{status === 'open' ? t('noOpenBets') : t('noSettledBets')}</Empty>
      </section>
    );
  }
  return (
    <div class="bet-list">
      {bets.map((bet) => (
        <BetCard key={bet.id} bet={bet} />
      ))}
      {cursor && (
        <button type="button" class="btn secondary block" disabled={more.loading} onClick={() => void loadMore()}>
          {t('loadMore')}
        </button>
      )}
    </div>
  );
}

import { sportsStore } from '../catalog.ts';
import { t } from '../i18n/index.ts';
import { sportName } from '../labels.ts';
import { go } from '../router.ts';
import { useStore } from '../store.ts';
import './SportChips.css';

/**
 * The sports as a row of chips (phones, and desktop without the side menu). `live` makes them filter the live
 * page: All live, then each sport with events in play.
 */
export function SportChips({ live, current }: { live?: boolean; current?: string }) {
  const sports = useStore(sportsStore);
  const shown = live ? sports.filter((sport) => sport.liveCount > 0) : sports.filter((sport) => sport.eventCount > 0);
  if (shown.length === 0) return null;
  const total = sports.reduce((sum, sport) => sum + sport.liveCount, 0);
  return (
    <nav class={`chips ${live ? 'live' : 'sports'}`} aria-label={live ? t('live') : t('sports')}>
      {live && (
        <button
          type="button"
          class={`chip${current === undefined ? ' active' : ''}`}
          aria-current={current === undefined ? 'page' : undefined}
          onClick={() => go({ page: 'live' })}
        >
          {t('allLive')} <span class="chip-count">{total}</span>
        </button>
      )}
      {shown.map((sport) => (
        <button
          key={sport.id}
          type="button"
          class={`chip${current === sport.id ? ' active' : ''}`}
          aria-current={current === sport.id ? 'page' : undefined}
          onClick={() => go(live ? { page: 'live', sportId: sport.id } : { page: 'sport', sportId: sport.id })}
        >
          {sportName(sport)}
          <span class="chip-count">{live ? sport.liveCount : sport.eventCount}</span>
        </button>
      ))}
    </nav>
  );
}

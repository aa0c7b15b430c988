import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { feedSlip } from '../catalog.ts';
import { t } from '../i18n/index.ts';
import { sportName } from '../labels.ts';
import { go } from '../router.ts';
import type { ApiResponse } from '../../../ui-shared/api-shapes.ts';
import { ErrorState, Skeleton } from './common.tsx';
import { EventGroup } from './Events.tsx';
import { Icon } from './icons.tsx';
import './Search.css';

type Results = ApiResponse<'searchCatalog'>;

/** The API's shortest search; fewer letters show a hint instead of asking. */
const MIN_LETTERS = 2;
/** Typing pauses this long before the search is sent, so a word typed fast makes one request. */
const TYPING_PAUSE_MS = 250;

/** The results of what was typed, once typing pauses; the previous request is cancelled when the text changes. */
function useSearch(text: string): { results?: Results; error?: unknown; searching: boolean } {
  const [state, setState] = useState<{ results?: Results; error?: unknown; searching: boolean }>({
    searching: false,
  });
  useEffect(() => {
    const query = text.trim();
    if (query.length < MIN_LETTERS) {
      setState({ searching: false });
      return;
    }
    setState((current) => ({ ...current, searching: true }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.search(query, controller.signal).then(
        (results) => {
          feedSlip(results.events);
          setState({ results, searching: false });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setState({ error, searching: false });
        },
      );
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);
  return state;
}

/**
 * Search for teams and competitions. While the field holds text, its results take the place of `children` (the
 * page's own content); clearing it brings the page back.
 */
export function SearchArea({ children }: { children: preact.ComponentChildren }) {
  const [text, setText] = useState('');
  const { results, error, searching } = useSearch(text);
  const query = text.trim();
  return (
    <>
      <div class="search" role="search">
        <Icon name="search" size={18} />
        <input
          type="search"
          value={text}
          aria-label={t('searchLabel')}
          placeholder={t('searchLabel')}
          autocomplete="off"
          enterKeyHint="search"
          maxLength={64}
          onInput={(event) => setText(event.currentTarget.value)}
        />
      </div>
      {query === '' ? (
        children
      ) : (
        <section class="search-results" aria-live="polite" aria-busy={searching}>
          {query.length < MIN_LETTERS && <p class="empty">{t('searchHint')}</p>}
          {query.length >= MIN_LETTERS && error !== undefined && <ErrorState />}
          {query.length >= MIN_LETTERS && results === undefined && error === undefined && <Skeleton rows={3} />}
          {results && results.competitions.length === 0 && results.events.length === 0 && !searching && (
            <p class="empty">{t('searchNoResults', { query })}</p>
          )}
          {results && results.competitions.length > 0 && (
            <section class="card">
              <h2 class="card-head card-title">{t('searchCompetitions')}</h2>
              <ul class="search-competitions">
                {results.competitions.map((competition) => (
                  <li key={competition.id}>
                    <button
                      type="button"
                      class="search-competition"
                      onClick={() => go({ page: 'competition', competitionId: competition.id })}
                    >
                      <span class="strong">{competition.name}</span>
                      <span class="muted small">
                        {sportName(competition.sport)} · {competition.country}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {results && results.events.length > 0 && (
            <EventGroup title={t('searchEvents')} events={results.events} showCompetition />
          )}
        </section>
      )}
    </>
  );
}

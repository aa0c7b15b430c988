import { Component, type ComponentChildren } from 'preact';
import { localeStore, oddsFormat, t } from '../i18n/index.ts';
import { back, canGoBack } from '../router.ts';
import { useStore } from '../store.ts';
import { Icon } from './icons.tsx';
import './common.css';

/**
 * A part of a page rendered again only when what it shows changed (`shows`, a string of everything it shows; with
 * `shownWith()` for the app's language and odds format): a list read again, a stream snapshot or another market's
 * change give every part new objects, most of them equal to the last. The components inside follow their own
 * changes (a clock's tick, the slip) without it.
 */
export class Same extends Component<{ shows: string; view: () => ComponentChildren }> {
  override shouldComponentUpdate(next: { shows: string }): boolean {
    return next.shows !== this.props.shows;
  }
  override render() {
    return this.props.view();
  }
}

/** What every part of a page shows depends on beside its data: the app's language and odds format. */
export const shownWith = (...data: unknown[]) => `${localeStore.get()}|${oddsFormat()}|${JSON.stringify(data)}`;

/** Placeholder rows while a list loads: the layout does not jump when the data comes. */
export function Skeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div class="card skeleton" role="status" aria-label={t('loading')}>
      {Array.from({ length: rows }, (_, index) => (
        <div class="skeleton-row" key={index}>
          <span class="bone wide" />
          <span class="bone" />
          <span class="bone" />
          <span class="bone" />
        </div>
      ))}
    </div>
  );
}

export function ErrorState({ onRetry, message }: { onRetry?: () => void; message?: string }) {
  return (
    <div class="state" role="alert">
      <p>{message ?? t('loadError')}</p>
      {onRetry && (
        <button type="button" class="btn secondary" onClick={onRetry}>
          {t('retry')}
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** A page's heading, with the sportsbook's own Back control and an optional control at its end (a star). */
export function PageHeader({
  title,
  subtitle,
  action,
}: {
  title: ComponentChildren;
  subtitle?: ComponentChildren;
  action?: ComponentChildren;
}) {
  const backable = useStore(canGoBack);
  return (
    <div class="page-head">
      {backable && (
        <button type="button" class="icon-btn back" onClick={back} aria-label={t('back')}>
          <Icon name="back" />
        </button>
      )}
      <div class="page-head-text">
        {subtitle && <p class="page-subtitle">{subtitle}</p>}
        {/* focusable by script only: where a new page leaves the keyboard (focus.ts) */}
        <h1 class="page-title" tabIndex={-1}>
          {title}
        </h1>
      </div>
      {action}
    </div>
  );
}

/**
 * A row of tabs over one panel (WAI-ARIA tabs): the chosen tab is the one in the Tab order, arrows move between
 * tabs and choose them, Home and End go to the ends.
 */
export function Tabs<Id extends string>({
  label,
  idPrefix,
  tabs,
  current,
  onChange,
  scroll = false,
}: {
  label: string;
  idPrefix: string;
  tabs: ReadonlyArray<{ id: Id; label: string }>;
  current: Id;
  onChange: (id: Id) => void;
  /** many tabs: one scrolling row instead of equal columns */
  scroll?: boolean;
}) {
  const choose = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length]!;
    onChange(tab.id);
    document.getElementById(`${idPrefix}-tab-${tab.id}`)?.focus();
  };
  const keys: Record<string, (index: number) => number> = {
    ArrowRight: (index) => index + 1,
    ArrowLeft: (index) => index - 1,
    Home: () => 0,
    End: () => tabs.length - 1,
  };
  return (
    <div class={`tabs${scroll ? ' scroll' : ''}`} role="tablist" aria-label={label}>
      {tabs.map((tab, index) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${tab.id}`}
          aria-selected={tab.id === current}
          aria-controls={`${idPrefix}-panel`}
          tabIndex={tab.id === current ? 0 : -1}
          onClick={() => onChange(tab.id)}
          onKeyDown={(event) => {
            const move = keys[event.key];
            if (!move) return;
            event.preventDefault();
            choose(move(index));
          }}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/** The panel under `Tabs`, named by its tab. */
export function TabPanel({
  idPrefix,
  current,
  children,
}: {
  idPrefix: string;
  current: string;
  children: ComponentChildren;
}) {
  return (
    <div id={`${idPrefix}-panel`} role="tabpanel" aria-labelledby={`${idPrefix}-tab-${current}`}>
      {children}
    </div>
  );
}

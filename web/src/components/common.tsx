import type { ComponentChildren } from 'preact';
import { t } from '../i18n/index.ts';
import { back, canGoBack } from '../router.ts';
import { useStore } from '../store.ts';
import { Icon } from './icons.tsx';
import './common.css';

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

/** A page's heading, with the sportsbook's own Back control. */
export function PageHeader({ title, subtitle }: { title: ComponentChildren; subtitle?: ComponentChildren }) {
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
        <h1 class="page-title">{title}</h1>
      </div>
    </div>
  );
}

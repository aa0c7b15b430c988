import { useEffect, useRef, useState } from 'preact/hooks';
import { pathOf, type Route } from '../../../sdk/protocol.ts';
import { BetSlip } from '../betslip/BetSlip.tsx';
import { slipOpen, slipStore } from '../betslip/slip.ts';
import { sportsStore } from '../catalog.ts';
import { money, t, tCount } from '../i18n/index.ts';
import { sportName } from '../labels.ts';
import { go, routeStore } from '../router.ts';
import { balanceStore, requestDeposit, requireLogin, sessionStore } from '../session.ts';
import { useStore } from '../store.ts';
import { Icon, type IconName } from './icons.tsx';
import './Shell.css';

export function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const list = matchMedia(query);
    const onChange = () => setMatches(list.matches);
    onChange();
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}

function section(route: Route): 'home' | 'live' | 'my-bets' | null {
  if (route.page === 'home') return 'home';
  if (route.page === 'live') return 'live';
  if (route.page === 'my-bets') return 'my-bets';
  return null;
}

const NAV: Array<{ id: 'home' | 'live' | 'my-bets'; icon: IconName; label: 'home' | 'live' | 'myBets'; route: Route }> =
  [
    { id: 'home', icon: 'home', label: 'home', route: { page: 'home' } },
    { id: 'live', icon: 'live', label: 'live', route: { page: 'live' } },
    { id: 'my-bets', icon: 'bets', label: 'myBets', route: { page: 'my-bets' } },
  ];

/**
 * Dark header: the sportsbook's name, the main sections (desktop), the wallet balance, Deposit or Log in. `bare` (the
 * host shows the balance itself, `header: false`): the main sections and, for a visitor, Log in only.
 */
export function Header({ desktop, siteName, bare = false }: { desktop: boolean; siteName: string; bare?: boolean }) {
  const session = useStore(sessionStore);
  const balance = useStore(balanceStore);
  const route = useStore(routeStore);
  const current = section(route);
  return (
    <header class={`topbar${bare ? ' bare' : ''}`}>
      {!bare && (
        <button type="button" class="brand" onClick={() => go({ page: 'home' })}>
          <span class="brand-mark" aria-hidden="true">
            <Icon name="ball" size={18} />
          </span>
          <span class="brand-name">{siteName}</span>
        </button>
      )}
      {desktop && (
        <nav class="top-nav" aria-label={t('mainNav')}>
          {NAV.map((item) => (
            <button
              key={item.id}
              type="button"
              class="top-nav-item"
              aria-current={current === item.id ? 'page' : undefined}
              onClick={() => go(item.route)}
            >
              {t(item.label)}
            </button>
          ))}
        </nav>
      )}
      <div class="account">
        {session ? (
          !bare && (
            <>
              {balance !== null && (
                <p class="balance" aria-live="polite">
                  <span class="balance-label">{t('balance')}</span>
                  <strong class="balance-amount" data-balance={balance}>
                    {money(balance)}
                  </strong>
                </p>
              )}
              <button type="button" class="btn deposit" onClick={requestDeposit}>
                {t('deposit')}
              </button>
            </>
          )
        ) : (
          <button type="button" class="btn login" onClick={() => requireLogin('login_button')}>
            {t('logIn')}
          </button>
        )}
      </div>
    </header>
  );
}

/**
 * Phones: Home, Live, My bets and the bet slip with its count; with `login` (the header is hidden), Log in for a
 * visitor too.
 */
export function BottomNav({ placement, login = false }: { placement: 'bottom' | 'top'; login?: boolean }) {
  const session = useStore(sessionStore);
  const route = useStore(routeStore);
  const slip = useStore(slipStore);
  const open = useStore(slipOpen);
  const current = open ? 'slip' : section(route);
  const count = slip.items.length;
  const [bump, setBump] = useState(false);
  const previous = useRef(count);
  useEffect(() => {
    if (count > previous.current) {
      setBump(true);
      const timer = setTimeout(() => setBump(false), 400);
      previous.current = count;
      return () => clearTimeout(timer);
    }
    previous.current = count;
    return undefined;
  }, [count]);
  return (
    <nav class={`bottom-nav ${placement}`} aria-label={t('mainNav')}>
      {NAV.map((item) => (
        <button
          key={item.id}
          type="button"
          class="nav-item"
          aria-current={current === item.id ? 'page' : undefined}
          onClick={() => {
            slipOpen.set(false);
            go(item.route);
          }}
        >
          <Icon name={item.icon} size={22} />
          <span>{t(item.label)}</span>
        </button>
      ))}
      <button
        type="button"
        class="nav-item slip-toggle"
        id="slip-toggle"
        aria-expanded={open}
        aria-label={count === 0 ? t('betSlipEmpty') : tCount('betSlipCount', count)}
        aria-current={current === 'slip' ? 'true' : undefined}
        onClick={() => slipOpen.set(!open)}
      >
        <Icon name="slip" size={22} />
        <span>{t('betSlip')}</span>
        {/* after the label, though drawn on the icon: the name reads "Bet slip, 2 ..." as shown (WCAG 2.5.3) */}
        {count > 0 && ' '}
        {count > 0 && <span class={`nav-count${bump ? ' bump' : ''}`}>{count}</span>}
      </button>
      {login && !session && (
        <button type="button" class="nav-item" onClick={() => requireLogin('login_button')}>
          <Icon name="lock" size={22} />
          <span>{t('logIn')}</span>
        </button>
      )}
    </nav>
  );
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex="0"]';

/** Keeps Tab and Shift+Tab inside a modal element: from its last control back to its first, and the other way. */
function trapTab(event: KeyboardEvent, within: HTMLElement | null): void {
  if (event.key !== 'Tab' || !within) return;
  const controls = [...within.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === within)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * Phones in `fill` height: the bet slip as a modal sheet over the page: focus moves into it and stays there (Tab
 * cycles), Escape or the backdrop closes it, and focus returns to the slip button.
 */
export function SlipSheet() {
  const sheet = useRef<HTMLDivElement>(null);
  useEffect(() => {
    sheet.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') slipOpen.set(false);
      trapTab(event, sheet.current);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      const toggle = document.getElementById('slip-toggle');
      toggle?.focus();
      // The sheet leaves the page in this same render: if focus fell to the body meanwhile, give it back.
      requestAnimationFrame(() => {
        if (document.activeElement === document.body) toggle?.focus();
      });
    };
  }, []);
  return (
    <div class="sheet-layer">
      <button type="button" class="backdrop" tabIndex={-1} aria-hidden="true" onClick={() => slipOpen.set(false)} />
      <div class="sheet" role="dialog" aria-modal="true" aria-labelledby="slip-title" tabIndex={-1} ref={sheet}>
        <BetSlip onClose={() => slipOpen.set(false)} />
      </div>
    </div>
  );
}

/** Wide screens: the sports, with what is live, beside the page. */
export function SportsMenu() {
  const sports = useStore(sportsStore);
  const route = useStore(routeStore);
  const path = pathOf(route);
  return (
    <nav class="sports-menu" aria-label={t('sports')}>
      <h2 class="menu-title">{t('sports')}</h2>
      <ul>
        <li>
          <button
            type="button"
            class="menu-item"
            aria-current={path === '/live' ? 'page' : undefined}
            onClick={() => go({ page: 'live' })}
          >
            <span class="live-dot" aria-hidden="true" />
            <span class="menu-name">{t('live')}</span>
            <span class="menu-count">{sports.reduce((sum, sport) => sum + sport.liveCount, 0)}</span>
          </button>
        </li>
        {sports
          .filter((sport) => sport.eventCount > 0)
          .map((sport) => (
            <li key={sport.id}>
              <button
                type="button"
                class="menu-item"
                aria-current={path === `/sport/${sport.id}` ? 'page' : undefined}
                onClick={() => go({ page: 'sport', sportId: sport.id })}
              >
                <span class="menu-name">{sportName(sport)}</span>
                <span class="menu-count">{sport.eventCount}</span>
              </button>
            </li>
          ))}
      </ul>
    </nav>
  );
}

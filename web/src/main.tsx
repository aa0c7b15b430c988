// First: reading the address removes `launch` and `token` from it before anything else runs.
import { launchParams } from './launch.ts';
// The stylesheets every view shares, in cascade order: before any component's own, which each component imports.
import '../../ui-shared/tokens.css';
import './theme/base.css';
import './components/ui.css';
import { render } from 'preact';
import { isLocale, parsePath, type HostMessage, type Locale } from '../../sdk/protocol.ts';
import { api } from './api.ts';
import { App } from './App.tsx';
import { stakeLimits, startSlipRefresh } from './betslip/slip.ts';
import './settings.ts';
import { prefetch, readSports } from './catalog.ts';
import { connect, markReady, post } from './bridge.ts';
import { currencyStore, hostOddsFormatStore, localeStore, t } from './i18n/index.ts';
import { openPath, routeStore, setSiteName, titleChanged } from './router.ts';
import { exchangeLaunchToken, loggedIn, logout, refreshBalance, startSession } from './session.ts';
import { applyTheme } from './theme/theme.ts';
import { startStreaming } from './stream.ts';
import { startWatching } from './watch.ts';

const root = document.getElementById('app')!;
/** The sports list (menu, chips): read again every minute. */
const SPORTS_POLL_MS = 60_000;

function setLocale(locale: Locale): void {
  localeStore.set(locale);
  document.documentElement.lang = locale;
  titleChanged();
}

async function handle(command: HostMessage): Promise<void> {
  switch (command.type) {
    case 'set_launch_token':
      await exchangeLaunchToken(command.payload.launchToken);
      return;
    case 'navigate':
      openPath(command.payload.path);
      return;
    case 'set_locale':
      setLocale(command.payload.locale);
      return;
    case 'refresh_balance': {
      if (!loggedIn()) return;
      const failure = await refreshBalance();
      // a 401 has ended the session (session_expired); other failures are reported
      if (failure && failure.status !== 401) post('error', { code: failure.code, message: failure.message });
      return;
    }
    case 'logout':
      await logout();
      return;
  }
}

/** The sports menu and chips on every page (Home and Live refresh them with their own data too). */
function keepSportsFresh(): void {
  setInterval(() => {
    if (!document.hidden) readSports().catch(() => undefined);
  }, SPORTS_POLL_MS);
}

/** `auto` height: the host sizes the iframe from `resize`, posted whenever the document's height changes. */
function reportHeight(): void {
  let last = -1;
  const measure = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    post('resize', { height });
  };
  new ResizeObserver(measure).observe(document.documentElement);
  measure();
}

function unavailable(message: string): void {
  root.removeAttribute('aria-busy');
  root.innerHTML = '';
  const text = document.createElement('p');
  text.className = 'fatal';
  text.textContent = message;
  root.append(text);
}

async function boot(): Promise<void> {
  document.documentElement.classList.add(`h-${launchParams.height}`);
  // before the first paint; what the address asked for and cannot have is told to the host once it is connected
  for (const refusal of [...launchParams.refused, ...applyTheme(launchParams.theme)]) post('error', refusal);
  if (launchParams.oddsFormat) hostOddsFormatStore.set(launchParams.oddsFormat);
  const tenant = launchParams.tenant;
  if (!tenant) {
    connect([]);
    post('error', { code: 'validation', message: 'The sportsbook address needs a tenant.' });
    unavailable(t('unavailableTenant'));
    return;
  }
  // the launch exchange (and the home page's first reads) run alongside the config read; events wait for the origin
  const session = startSession();
  // every page's menu and chips (and home's sections) need the sports: one read, which they share
  readSports().catch(() => undefined);
  if (parsePath(launchParams.path ?? '/')?.page === 'home') prefetch('live', () => api.live());
  let config;
  try {
    config = await api.config(tenant);
  } catch (error) {
    connect([]);
    const code = (error as { code?: string }).code ?? 'unavailable';
    post('error', { code, message: 'The sportsbook could not start for this tenant.' });
    unavailable(t('unavailableTenant'));
    return;
  }
  currencyStore.set(config.tenant.currency);
  stakeLimits.set(config.betting);
  setLocale(launchParams.locale ?? (isLocale(config.tenant.locale) ? config.tenant.locale : 'en'));
  setSiteName(config.tenant.name);
  connect(config.tenant.embedOrigins);

  const first = launchParams.path ?? '/';
  const firstRoute = parsePath(first);
  routeStore.set(firstRoute ?? { page: 'home' });
  root.removeAttribute('aria-busy');
  render(
    <App
      height={launchParams.height}
      header={launchParams.header}
      siteName={config.tenant.name}
      notice={config.tenant.available ? undefined : t('err_unavailable')}
    />,
    root,
  );

  await session;
  startStreaming();
  post('ready', {
    locale: localeStore.get(),
    height: launchParams.height,
    path: firstRoute ? first : '/',
    loggedIn: loggedIn(),
    currency: config.tenant.currency,
  });
  openPath(first, true);
  // one command at a time, in order: a `navigate` to /my-bets after `set_launch_token` sees the new session
  let commands = Promise.resolve();
  markReady((command) => {
    commands = commands.then(() => handle(command)).catch(() => undefined);
  });
  startWatching();
  startSlipRefresh();
  keepSportsFresh();
  if (launchParams.height === 'auto') reportHeight();
}

void boot();

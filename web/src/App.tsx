import { useEffect, useRef } from 'preact/hooks';
import { pathOf, type HeightMode, type Route } from '../../sdk/protocol.ts';
import { BetSlip } from './betslip/BetSlip.tsx';
import { slipOpen } from './betslip/slip.ts';
import { BottomNav, Header, SlipSheet, SportsMenu, useMedia } from './components/Shell.tsx';
import { Toast } from './components/Toast.tsx';
import { pageHeading, refocus } from './focus.ts';
import { hostOddsFormatStore, localeStore, oddsFormatStore, t } from './i18n/index.ts';
import { CompetitionPage } from './pages/Competition.tsx';
import { EventPage } from './pages/Event.tsx';
import { HomePage } from './pages/Home.tsx';
import { LivePage } from './pages/Live.tsx';
import { MyBetsPage } from './pages/MyBets.tsx';
import { SportPage } from './pages/Sport.tsx';
import { routeStore } from './router.ts';
import { useStore } from './store.ts';
import './App.css';

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'home':
      return <HomePage />;
    case 'live':
      return <LivePage sportId={route.sportId} />;
    case 'sport':
      return <SportPage sportId={route.sportId} />;
    case 'competition':
      return <CompetitionPage competitionId={route.competitionId} />;
    case 'event':
      return <EventPage eventId={route.eventId} />;
    case 'my-bets':
      return <MyBetsPage />;
  }
}

/**
 * The layout. Below 900 px (phones): header, page, bottom navigation, and the bet slip as a sheet. From 900 px: a
 * side bet slip, and from 1200 px a sports menu too. In `fill` height the page scrolls inside the iframe between
 * a fixed header and navigation; in `auto` height the document grows with its content (the host sizes the iframe
 * from `resize`), the phone navigation sits under the header and the bet slip opens in place of the page.
 */
export function App({
  height,
  header,
  siteName,
  notice,
}: {
  height: HeightMode;
  /** false: the host shows the balance; phones get no header and desktops only the navigation */
  header: boolean;
  siteName: string;
  notice?: string;
}) {
  const route = useStore(routeStore);
  // every price on screen is written in the locale and the odds format: a change of either renders them all again
  useStore(localeStore);
  useStore(oddsFormatStore);
  useStore(hostOddsFormatStore);
  const desktop = useMedia('(min-width: 900px)');
  const wide = useMedia('(min-width: 1200px)');
  const open = useStore(slipOpen);
  const main = useRef<HTMLElement>(null);
  const path = pathOf(route);

  useEffect(() => {
    if (height === 'fill') main.current?.scrollTo({ top: 0 });
  }, [path, height]);
  // a new page replaces the control that opened it (a row, Back): the keyboard carries on from its heading; not on the
  // first page, and not when the focus is elsewhere (a navigation button still on screen, the host's page)
  const firstPage = useRef(true);
  useEffect(() => {
    if (!firstPage.current) refocus(pageHeading);
    firstPage.current = false;
  }, [path]);
  useEffect(() => {
    if (desktop) slipOpen.set(false);
  }, [desktop]);

  const slipInPage = !desktop && open && height === 'auto';
  return (
    <div class={`app ${desktop ? 'desktop' : 'mobile'}${wide ? ' wide' : ''}`}>
      {(header || desktop) && <Header desktop={desktop} siteName={siteName} bare={!header} />}
      {!desktop && height === 'auto' && <BottomNav placement="top" login={!header} />}
      {notice && (
        <p class="banner" role="status">
          {notice}
        </p>
      )}
      <div class="body">
        {wide && <SportsMenu />}
        <main id="main" class="content" ref={main} tabIndex={-1} aria-label={t('appName')}>
          {slipInPage ? <BetSlip onClose={() => slipOpen.set(false)} /> : <Page key={path} route={route} />}
        </main>
        {desktop && (
          <aside class="slip-column" aria-label={t('betSlip')}>
            <BetSlip />
          </aside>
        )}
      </div>
      {!desktop && height === 'fill' && <BottomNav placement="bottom" login={!header} />}
      {!desktop && height === 'fill' && open && <SlipSheet />}
      <Toast />
    </div>
  );
}

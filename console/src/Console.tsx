import { useEffect, useState } from 'preact/hooks';
import { call } from './api.ts';
import { AREAS, NAV, areaOf, mayOpen, type AreaName } from './areas.ts';
import { count } from './format.ts';
import { language, t } from './messages.ts';
import type { Screen } from './screen.ts';
import { followLink, href, match, navigate, place } from './router.ts';
import { noteActivity, session, signOut, type Staff } from './session.ts';
import { SignIn } from './signin/SignIn.tsx';
import { useValue } from './store.ts';
import { LanguageSwitch } from './ui/LanguageSwitch.tsx';
import { Empty, Failure, Loading, Page } from './ui/ui.tsx';

/** The console: sign-in until a session exists, then the screens the staff member's role opens. */
export function Console() {
  const current = useValue(session);
  // a new language re-renders everything from here, reading `t` anew; state and the session stay as they are
  useValue(language);
  useEffect(() => {
    const activity = () => noteActivity();
    document.addEventListener('click', followLink);
    document.addEventListener('keydown', activity);
    document.addEventListener('pointerdown', activity);
    return () => {
      document.removeEventListener('click', followLink);
      document.removeEventListener('keydown', activity);
      document.removeEventListener('pointerdown', activity);
    };
  }, []);
  return current ? <Shell staff={current.staff} /> : <SignIn />;
}

function Shell(props: { staff: Staff }) {
  const { path } = useValue(place);
  const role = props.staff.role;
  const items = NAV.filter((item) => mayOpen(role, item.area));
  const home = items[0]!.path;
  useEffect(() => {
    if (path === '/' && home !== '/') navigate(href(home), { replace: true });
  }, [path, home]);
  const area = areaOf(path);
  const held = useHeldCount(mayOpen(role, 'operator'), path);
  return (
    <div class="shell">
      <a class="skip" href="#main">
        {t.skipToContent}
      </a>
      <header class="topbar">
        <span class="brand">{t.product}</span>
        <span class="who">
          <span class="who-email">{props.staff.email}</span> <span class="who-role">{t.roles[role]}</span>
        </span>
        <span class="topbar-actions">
          <LanguageSwitch />
          <button type="button" class="button button-quiet" onClick={() => void signOut()}>
            {t.signOut}
          </button>
        </span>
      </header>
      <nav class="sidenav" aria-label={t.mainNavigation}>
        <ul>
          {items.map((item) => {
            const active = item.path === '/' ? path === '/' : path === item.path || path.startsWith(`${item.path}/`);
            return (
              <li key={item.path}>
                <a href={href(item.path)} aria-current={active ? 'page' : undefined}>
                  {item.label(t)}
                  {item.path === '/workspace' && held > 0 && (
                    <span class="nav-count">
                      <span aria-hidden="true">{count(held)}</span>
                      <span class="visually-hidden">{t.heldWaiting(held, count(held))}</span>
                    </span>
                  )}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <main class="content" id="main" tabIndex={-1}>
        {area === null ? (
          <NotFound />
        ) : mayOpen(role, area) ? (
          <AreaScreen area={area} path={path} />
        ) : (
          <Page title={t.notAllowedTitle}>
            <Empty>{t.notAllowed}</Empty>
          </Page>
        )}
      </main>
    </div>
  );
}

/**
 * How many movements wait for review (the operator's tenant, or every tenant for a platform administrator), read
 * again at each change of page so that the count follows the work done.
 */
function useHeldCount(wanted: boolean, path: string): number {
  const [held, setHeld] = useState(0);
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    call('countObligations', 'GET', '/api/v1/admin/obligations/counts', { signal: controller.signal }).then(
      (counts) => setHeld(counts.states.held),
      () => undefined,
    );
    return () => controller.abort();
  }, [wanted, path]);
  return held;
}

const loadedAreas = new Map<AreaName, Screen[]>();

/** The screen of a path, once its area's chunk is loaded. */
function AreaScreen(props: { area: AreaName; path: string }) {
  const [screens, setScreens] = useState(loadedAreas.get(props.area));
  const [failed, setFailed] = useState<Error | null>(null);
  useEffect(() => {
    const known = loadedAreas.get(props.area);
    setScreens(known);
    if (known) return;
    let live = true;
    AREAS[props.area].load().then(
      (module) => {
        loadedAreas.set(props.area, module.screens);
        if (live) setScreens(module.screens);
      },
      (error: Error) => live && setFailed(error),
    );
    return () => {
      live = false;
    };
  }, [props.area]);
  if (failed) return <Failure error={failed} retry={() => location.reload()} />;
  if (!screens) return <Loading />;
  for (const screen of screens) {
    const params = match(screen.pattern, props.path);
    if (params) return screen.render(params);
  }
  return <NotFound />;
}

function NotFound() {
  return (
    <Page title={t.notFoundTitle}>
      <Empty>{t.notFound}</Empty>
    </Page>
  );
}

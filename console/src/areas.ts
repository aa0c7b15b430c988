import type { t } from './messages.ts';
import type { Screen } from './screen.ts';
import type { Role } from './session.ts';

export type AreaName = 'platform' | 'trading' | 'operator';

/** An area is a chunk of its own, loaded the first time a staff member opens one of its screens. */
export const AREAS: Record<AreaName, { roles: Role[]; load: () => Promise<{ screens: Screen[] }> }> = {
  platform: { roles: ['platform_admin'], load: () => import('./areas/platform/index.tsx') },
  trading: { roles: ['trader', 'platform_admin'], load: () => import('./areas/trading/index.tsx') },
  operator: { roles: ['operator', 'platform_admin'], load: () => import('./areas/operator/index.tsx') },
};

export interface NavItem {
  path: string;
  area: AreaName;
  label: (text: typeof t) => string;
}

/** The navigation, in the order a role works; a staff member sees the items of the areas its role opens. */
export const NAV: NavItem[] = [
  { path: '/', area: 'platform', label: (t) => t.nav.home },
  { path: '/aggregators', area: 'platform', label: (t) => t.nav.aggregators },
  { path: '/clients', area: 'platform', label: (t) => t.nav.clients },
  { path: '/staff', area: 'platform', label: (t) => t.nav.staff },
  { path: '/trading/events', area: 'trading', label: (t) => t.nav.events },
  { path: '/trading/producers', area: 'trading', label: (t) => t.nav.producers },
  { path: '/workspace', area: 'operator', label: (t) => t.nav.workspace },
  { path: '/bets', area: 'operator', label: (t) => t.nav.bets },
  { path: '/adjustments', area: 'operator', label: (t) => t.nav.adjustments },
  { path: '/reports/ggr', area: 'operator', label: (t) => t.nav.ggr },
  { path: '/audit', area: 'operator', label: (t) => t.nav.audit },
  { path: '/settings', area: 'operator', label: (t) => t.nav.settings },
];

/** The area a path belongs to (`/` is the platform's home; a trader's and an operator's home is their first item). */
export function areaOf(path: string): AreaName | null {
  const item = NAV.filter(
    (entry) => entry.path !== '/' && (path === entry.path || path.startsWith(`${entry.path}/`)),
  )[0];
  if (item) return item.area;
  if (path.startsWith('/aggregators') || path.startsWith('/clients')) return 'platform';
  return path === '/' ? 'platform' : null;
}

export function mayOpen(role: Role, area: AreaName): boolean {
  return AREAS[area].roles.includes(role);
}

import type { Screen } from '../../areas.ts';
import { Adjustments } from './Adjustments.tsx';
import { Bets } from './Bets.tsx';
import { Settings } from './Settings.tsx';
import { Workspace } from './Workspace.tsx';

/** The operator's screens (a tenant's; platform administrators pick the tenant). */
export const screens: Screen[] = [
  { pattern: '/workspace', render: () => <Workspace /> },
  { pattern: '/bets', render: () => <Bets /> },
  { pattern: '/adjustments', render: () => <Adjustments /> },
  { pattern: '/settings', render: () => <Settings /> },
];

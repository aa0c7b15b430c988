import type { Screen } from '../../screen.ts';
import { Adjustments } from './Adjustments.tsx';
import { Audit } from './Audit.tsx';
import { Bets } from './Bets.tsx';
import { Report } from './Report.tsx';
import { Settings } from './Settings.tsx';
import { Workspace } from './Workspace.tsx';

/** The operator's screens (a tenant's; platform administrators pick the tenant). */
export const screens: Screen[] = [
  { pattern: '/workspace', render: () => <Workspace /> },
  { pattern: '/bets', render: () => <Bets /> },
  { pattern: '/adjustments', render: () => <Adjustments /> },
  { pattern: '/settings', render: () => <Settings /> },
  { pattern: '/reports/ggr', render: () => <Report /> },
  { pattern: '/audit', render: () => <Audit /> },
];

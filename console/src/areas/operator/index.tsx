import type { Screen } from '../../areas.ts';
import { Workspace } from './Workspace.tsx';

/** The operator's screens (a tenant's; platform administrators pick the tenant). */
export const screens: Screen[] = [{ pattern: '/workspace', render: () => <Workspace /> }];

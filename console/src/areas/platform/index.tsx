import type { Screen } from '../../screen.ts';
import { AggregatorScreen } from './Aggregator.tsx';
import { Aggregators } from './Aggregators.tsx';
import { ClientScreen, Clients } from './Clients.tsx';
import { Home } from './Home.tsx';
import { Staff } from './Staff.tsx';

/** The platform administrator's screens. */
export const screens: Screen[] = [
  { pattern: '/', render: () => <Home /> },
  { pattern: '/aggregators', render: () => <Aggregators /> },
  { pattern: '/aggregators/:id', render: ({ id }) => <AggregatorScreen id={id!} /> },
  { pattern: '/clients', render: () => <Clients /> },
  { pattern: '/clients/:id', render: ({ id }) => <ClientScreen id={id!} /> },
  { pattern: '/staff', render: () => <Staff /> },
];

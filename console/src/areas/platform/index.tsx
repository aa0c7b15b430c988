import type { Screen } from '../../areas.ts';
import { AggregatorScreen } from './Aggregator.tsx';
import { Aggregators } from './Aggregators.tsx';

/** The platform administrator's screens. */
export const screens: Screen[] = [
  { pattern: '/aggregators', render: () => <Aggregators /> },
  { pattern: '/aggregators/:id', render: ({ id }) => <AggregatorScreen id={id!} /> },
];

import type { Screen } from '../../screen.ts';
import { EventPage } from './EventPage.tsx';
import { Events } from './Events.tsx';
import { Producers } from './Producers.tsx';

/** The trader's screens: the catalog tree, an event's markets, and the feed's producers. */
export const screens: Screen[] = [
  { pattern: '/trading/events', render: () => <Events /> },
  { pattern: '/trading/events/:id', render: ({ id }) => <EventPage id={id!} /> },
  { pattern: '/trading/producers', render: () => <Producers /> },
];

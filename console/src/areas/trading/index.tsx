import type { Screen } from '../../screen.ts';
import { EventPage } from './EventPage.tsx';
import { Events } from './Events.tsx';

/** The trader's screens: the catalog tree and an event's markets. */
export const screens: Screen[] = [
  { pattern: '/trading/events', render: () => <Events /> },
  { pattern: '/trading/events/:id', render: ({ id }) => <EventPage id={id!} /> },
];

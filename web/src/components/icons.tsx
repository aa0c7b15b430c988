/** The few icons the sportsbook uses, inline (no icon font, no extra request). Decorative: aria-hidden. */

const paths = {
  home: 'M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
  live: 'M12 8a4 4 0 1 1 0 8 4 4 0 0 1 0-8zM4.9 4.9a10 10 0 0 0 0 14.2l1.4-1.4a8 8 0 0 1 0-11.4zm14.2 0-1.4 1.4a8 8 0 0 1 0 11.4l1.4 1.4a10 10 0 0 0 0-14.2z',
  bets: 'M5 3h14a1 1 0 0 1 1 1v17l-3-2-2 2-3-2-3 2-2-2-3 2V4a1 1 0 0 1 1-1zm3 5v2h8V8zm0 4v2h6v-2z',
  slip: 'M4 5a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v3a2 2 0 0 0 0 4v7a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-7a2 2 0 0 0 0-4zm5 3v2h6V8zm0 5v2h6v-2z',
  back: 'M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z',
  close: 'M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z',
  lock: 'M7 10V8a5 5 0 0 1 10 0v2h1a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1zm2 0h6V8a3 3 0 0 0-6 0z',
  chevron: 'M8.6 5.4 10 4l8 8-8 8-1.4-1.4 6.6-6.6z',
  search: 'M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z',
  star: 'M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8L3.5 9.7l5.9-.9z',
  starOutline:
    'M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8L3.5 9.7l5.9-.9zm0 4.5-1.3 2.7-3 .4 2.2 2.1-.5 3 2.6-1.4 2.6 1.4-.5-3 2.2-2.1-3-.4z',
  up: 'M12 6l6 8H6z',
  down: 'M12 18l-6-8h12z',
  ball: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 3 3 2.2-1.1 3.6h-3.8L9 7.2zm-6.2 3.4 2.6.6 1.2 3.8-2.1 2.9-2.6-.4A8 8 0 0 1 5.8 8.4zm12.4 0a8 8 0 0 1 .9 6.9l-2.6.4-2.1-2.9 1.2-3.8zM10.1 15h3.8l1.5 2.6A8 8 0 0 1 12 20a8 8 0 0 1-3.4-.8z',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    <svg class="icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={paths[name]} fill="currentColor" />
    </svg>
  );
}

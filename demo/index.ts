/** The demo's programmatic entry: `startDemo()` starts the whole demo (see start.ts); `npm run demo` runs main.ts. */
export { startDemo } from './start.ts';

/** The demo's programmatic entry: `startDemo()` starts the whole demo (see start.ts); `npm run demo` runs main.ts. */
export { DEFAULT_DATA_DIR, DEFAULT_PORTS, DemoError, PORT_VARIABLES, startDemo } from './start.ts';
export type { Demo, DemoOptions, DemoPorts, DemoWalletInfo } from './start.ts';

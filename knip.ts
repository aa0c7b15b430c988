import type { KnipConfig } from 'knip';

/** Dead files, exports and dependencies: `knip` reports them in npm run lint, and must find none. */
const config: KnipConfig = {
  entry: [
    'src/cli/main.ts',
    'scripts/*.ts',
    'bench/*.ts',
    'sdk/index.ts',
    'sdk/build.ts',
    'web/src/main.tsx',
    'console/src/main.tsx',
    'test/**/*.test.ts',
    'e2e/**/*.test.ts',
    'web/test/**/*.test.ts',
  ],
  project: [
    'src/**/*.ts',
    'web/src/**/*.{ts,tsx}',
    'web/test/**/*.ts',
    'console/src/**/*.{ts,tsx}',
    'ui-shared/**/*.ts',
    'sdk/**/*.ts',
    'demo/**/*.ts',
    'reference-wallet/**/*.ts',
    'test/**/*.ts',
    'e2e/**/*.ts',
    'bench/**/*.ts',
    'scripts/**/*.ts',
  ],
  // Migrations are read as modules (`import * as`) by the migration list, each through its `up`; the generated API
  // types are the whole document, of which the web app and the console use what they need.
  ignore: ['src/platform/db/migrations/0*.ts', 'ui-shared/generated/**'],
  // Run by scripts/test.ts as commands, not imported; axe-core's script is read from its file and run in the browser.
  ignoreDependencies: ['@redocly/cli', 'axe-core'],
  // System tools some tests run when they are there: setpriv (the permission tests), promtool (Prometheus's own
  // checks of the metrics and alert rules, from Debian's `prometheus` package).
  ignoreBinaries: ['setpriv', 'promtool'],
};

export default config;

/**
 * The import rules of ARCHITECTURE.md, checked in `npm run lint` (and `npm test`) by dependency-cruiser.
 * Type-only imports count: a type that pulls a domain into the platform is a dependency all the same.
 */
// dependency-cruiser reads a CommonJS configuration.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readdirSync } = require('node:fs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { join } = require('node:path');

/**
 * Every folder of src/ is a domain, but the floor (platform), the entry (cli), the administrative commands the entry
 * and the server run (commands) and the demo data (seed): read from the folders, so a domain is covered the day it
 * exists.
 */
const DOMAINS = `(${readdirSync(join(__dirname, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['platform', 'cli', 'commands', 'seed'].includes(entry.name))
  .map((entry) => entry.name)
  .join('|')})`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle: the files in it cannot be understood, tested or moved one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-knows-no-domain',
      severity: 'error',
      comment:
        'src/platform/ is the floor every domain stands on: it imports no domain (domains extend its types), nor ' +
        'anything above the domains (the files at the root of src/, the commands, the CLI, the seed).',
      from: { path: '^src/platform/' },
      to: { path: `^src/(${DOMAINS}|cli|commands|seed)/|^src/[^/]+\\.ts$` },
    },
    {
      name: 'domains-look-down',
      severity: 'error',
      comment:
        'A domain never imports what wires it (the files at the root of src/: server.ts, app.ts and its parts), ' +
        'the administrative commands or the CLI.',
      from: { path: `^src/(${DOMAINS}|seed)/` },
      to: { path: '^src/[^/]+\\.ts$|^src/(cli|commands)/' },
    },
    {
      name: 'commands-look-down',
      severity: 'error',
      comment:
        'The administrative commands are run by the CLI and, for a CLI beside it, by the server (the local ' +
        'channel): they import neither, nor the wiring of the app (the files at the root of src/).',
      from: { path: '^src/commands/' },
      to: { path: '^src/[^/]+\\.ts$|^src/cli/' },
    },
    {
      name: 'seed-stays-out-of-production',
      severity: 'error',
      comment: 'src/seed/ (demo catalog, live simulator) calls the domains; no domain and no platform code calls it.',
      from: { path: `^src/(${DOMAINS}|platform)/` },
      to: { path: '^src/seed/' },
    },
    {
      name: 'a-store-belongs-to-its-domain',
      severity: 'error',
      comment:
        "A domain's store (its SQL: store.ts, or the files of a store/ folder) is used only inside its folder; other " +
        'domains ask its service.',
      from: { path: '^src/([^/]+)/' },
      to: { path: ['(^|/)store\\.ts$', '/store/[^/]+\\.ts$'], pathNot: '^src/$1/' },
    },
    {
      name: 'states-are-data',
      severity: 'error',
      comment: "A domain's states.ts holds its column values and state machines as data: it imports nothing.",
      from: { path: '(^|/)states\\.ts$' },
      to: {},
    },
    {
      name: 'web-and-sdk-stay-in-the-browser',
      severity: 'error',
      comment: 'The iframe app and the SDK run in browsers: they import no server code.',
      from: { path: '^(web|sdk)/' },
      to: { path: '^(src|demo|reference-wallet|bench)/' },
    },
    {
      name: 'the-console-stays-in-the-browser',
      severity: 'error',
      comment:
        'The staff console runs in browsers and calls only the admin API. With the iframe app it shares what ' +
        'ui-shared/ holds (the design tokens, the generated API types and their shape helpers, the reading of a live ' +
        'match clock), and imports nothing of web/ (not the player protocol bridge).',
      from: { path: '^console/' },
      to: { path: '^(src|demo|reference-wallet|bench|sdk|web)/' },
    },
    {
      name: 'the-shared-pieces-belong-to-neither-app',
      severity: 'error',
      comment:
        'ui-shared/ is what the iframe app and the staff console share: it imports neither of them, nor the SDK, ' +
        'nor server code.',
      from: { path: '^ui-shared/' },
      to: { path: '^(src|demo|reference-wallet|bench|sdk|web|console)/' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A source file nothing imports is dead code (entry points and tests excepted).',
      from: {
        orphan: true,
        pathNot: [
          '(^|/)\\.[^/]+\\.(c?js|json)$',
          '\\.d\\.ts$',
          '(^|/)tsconfig\\.json$',
          '^(test|e2e|bench|scripts)/',
          '^bin/',
          'vite\\.config\\.ts$',
          'eslint\\.config\\.js$',
          '^web/src/main\\.tsx$',
          '^console/src/main\\.tsx$',
          '^sdk/(index|build)\\.ts$',
          '^demo/main\\.ts$',
          '^reference-wallet/main\\.ts$',
          '^demo/public/',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};

// Lint rules of the project. Type-aware: promise mistakes (a forgotten await on a money path) are errors, and the
// layout rules of ARCHITECTURE.md are checked here: SQL only in stores, a store only used by its own domain,
// errors only thrown from a catalogue.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * A domain's store: its `store.ts` or, once that grows past one file, the files of its `store/` folder, one per table
 * or concern (`catalog/store/events.ts`).
 */
const STORE_FILES = ['src/**/store.ts', 'src/**/store/*.ts'];
const STORE_BOUNDARY = {
  regex: '^\\.\\./(.+/)?store(/[^/]+)?\\.ts$',
  message: "A domain's tables belong to its own store: ask the owning service instead.",
};
/** A domain of rooms (src/wallet/ledger/, …): its rooms' stores are the domain's, so one room may use another's. */
const ROOM_STORE_BOUNDARY = { ...STORE_BOUNDARY, regex: '^\\.\\./\\.\\./(.+/)?store(/[^/]+)?\\.ts$' };
/** The same from the files of a room's `store/` folder (src/wallet/ledger/store/…), one folder deeper. */
const ROOM_STORE_FOLDER_BOUNDARY = { ...STORE_BOUNDARY, regex: '^\\.\\./\\.\\./\\.\\./(.+/)?store(/[^/]+)?\\.ts$' };
const SQL_ONLY_IN_STORES = 'SQL lives in stores only (store.ts, or the files of a store/ folder).';
const SQL_BUILDERS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto'].map(
  (property) => ({ property, message: SQL_ONLY_IN_STORES }),
);
// A store imported whole is named `store` or `…Store` (`eventStore`), so its calls read as SQL and
// test/architecture.test.ts finds them (who calls the wallet stores' writers of wallet_obligations).
const STORE_NAMESPACE = {
  selector:
    'ImportDeclaration[source.value=/(^|\\/)store(\\/[\\w-]+)?\\.ts$/] > ImportNamespaceSpecifier[local.name!=/^(store|\\w+Store)$/]',
  message: 'Name a store imported whole `store` or `…Store` (eventStore).',
};
// Business time (expiries, windows, timestamps) comes from the injectable Clock, so tests can move it; waiting
// (timeouts, polls, heartbeats) uses real timers and performance.now().
const WALL_CLOCK = [
  "CallExpression[callee.object.name='Date'][callee.property.name='now']",
  "NewExpression[callee.name='Date'][arguments.length=0]",
].map((selector) => ({
  selector,
  message: 'Time comes from the Clock (platform/clock.ts); elapsed time from performance.now().',
}));
const SQL_TAG = { name: 'kysely', importNames: ['sql'], message: SQL_ONLY_IN_STORES };

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'web/dist/', 'sdk/dist/', 'console/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/require-await': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [STORE_BOUNDARY] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='AppError']",
          message: "Throw a catalogued error by name (a domain's errors.ts), not an ad hoc AppError.",
        },
        STORE_NAMESPACE,
        ...WALL_CLOCK,
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: [...STORE_FILES, 'src/platform/db/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [STORE_BOUNDARY], paths: [SQL_TAG] }],
      'no-restricted-properties': ['error', ...SQL_BUILDERS],
    },
  },
  {
    files: ['src/wallet/*/*.ts'],
    ignores: STORE_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [ROOM_STORE_BOUNDARY], paths: [SQL_TAG] }] },
  },
  {
    files: ['src/wallet/*/store.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ROOM_STORE_BOUNDARY] }] },
  },
  {
    files: ['src/wallet/*/store/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ROOM_STORE_FOLDER_BOUNDARY] }] },
  },
  {
    // A handler reads what its guard established through `guarded` (platform/http/auth.ts), never `request.staff!`.
    files: ['src/**/routes.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  {
    files: ['src/platform/errors.ts', 'src/platform/clock.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Tests read loosely typed JSON answers on purpose, and may look at any table to check what happened.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
);

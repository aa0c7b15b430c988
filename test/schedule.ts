/**
 * The test files that take longest, longest first, as measured (docs/testing.md, "How long it takes"): the runner
 * (scripts/run-tests.ts) starts them first and the rest in name order, so no long file is left to run alone at the
 * end. Only the order depends on this list: a file missing from it still runs. test/engines.test.ts checks that
 * every name here exists.
 */
export const LONGEST_FIRST: readonly string[] = [
  'e2e/pages.test.ts',
  'test/wallet/crash-soak.test.ts',
  'test/wallet/delivery.test.ts',
  'e2e/app.test.ts',
  'test/wallet/certify-cli.test.ts',
  'test/wallet/soak-command.test.ts',
  'e2e/embed.test.ts',
  'e2e/console.test.ts',
  'test/cli.test.ts',
  'test/wallet/adjustments.test.ts',
  'e2e/demo.test.ts',
  'test/platform/data-directory.test.ts',
  'test/sandbox/movements.test.ts',
  'test/wallet/certification.test.ts',
  'test/betting/placement.test.ts',
  'test/seed/live-simulator.test.ts',
  'test/sandbox/rules.test.ts',
  'test/platform/pglite-image.test.ts',
  'test/operations/backup-restore.test.ts',
];

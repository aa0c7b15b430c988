/**
 * The test files that take longest, longest first, as measured (docs/testing.md, "How long it takes"): the runner
 * (scripts/run-tests.ts) starts them first and the rest in name order, so no long file is left to run alone at the
 * end. Only the order depends on this list: a file missing from it still runs. test/engines.test.ts checks that
 * every name here exists.
 */
export const LONGEST_FIRST: readonly string[] = [
  'test/cli.test.ts',
  'test/wallet/crash-soak.test.ts',
  'e2e/embed.test.ts',
  'e2e/pages.test.ts',
  'e2e/app.test.ts',
  'e2e/console.test.ts',
  'test/wallet/delivery.test.ts',
  'test/wallet/soak-command.test.ts',
  'test/platform/fuzz.test.ts',
  'test/operations/backup-restore.test.ts',
  'test/platform/data-directory.test.ts',
  'test/betting/placement.test.ts',
  'e2e/keyboard.test.ts',
  'e2e/demo.test.ts',
  'test/wallet/certify-cli.test.ts',
  'test/betting/crash-recovery.test.ts',
  'test/platform/metrics.test.ts',
  'test/platform/pglite-image.test.ts',
  'test/cli-failures.test.ts',
  'test/platform/failed-attempts.test.ts',
  'test/aggregator/activation.test.ts',
  'test/wallet/certification.test.ts',
  'test/catalog/catalog.test.ts',
];

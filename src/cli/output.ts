/** What the CLI writes: results on standard output, progress on standard error, and a failure in one line. */
import { ConfigError, dataDirOf, type Config } from '../platform/config.ts';
import { InstanceLockError } from '../platform/db/instance-lock.ts';
import { describeDatabase, StartupError } from '../server.ts';
import type { Output } from '../commands/definitions.ts';
import { debugDetails, explainFailure, type FailureContext } from '../commands/failures.ts';

export const stdout: Output = {
  result: (line) => process.stdout.write(`${line}\n`),
  progress: (line) => process.stderr.write(`${line}\n`),
};

/** Any failure of a command, said in one line with what to do; the stack only under LOG_LEVEL=debug or trace. */
export function fail(error: unknown, config: Config | undefined): number {
  process.stderr.write(`bookmaker: ${explain(error, config)}\n`);
  showDebugDetails(error);
  return 1;
}

function explain(error: unknown, config: Config | undefined): string {
  if (error instanceof ConfigError) return `configuration error: ${error.message}`;
  if (error instanceof StartupError || error instanceof InstanceLockError) return error.message;
  return explainFailure(error, whereCommandsRun(config));
}

export function whereCommandsRun(config: Config | undefined): FailureContext {
  return {
    dataDir: config?.dataDir ?? dataDirOf(),
    database: config?.databaseUrl ? describeDatabase(config) : undefined,
  };
}

export function showDebugDetails(error: unknown): void {
  const details = debugDetails(error, process.env.LOG_LEVEL);
  if (details) process.stderr.write(`${details}\n`);
}

/** An administrative command run by the CLI: on its own database connection, or by the server that owns DATA_DIR. */
import { systemClock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import { ensurePrivateDir, makePrivate } from '../platform/data-dir.ts';
import { openDatabase } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { InstanceLockError, lockDataDir } from '../platform/db/instance-lock.ts';
import { pgliteDir } from '../platform/data-dir.ts';
import { describeDatabase } from '../server.ts';
import { adminServices, runCommand, type AdminCommandSpec } from '../commands/definitions.ts';
import { channelPath } from '../commands/local-channel.ts';
import { runInServer } from './channel-client.ts';
import { showDebugDetails, stdout, whereCommandsRun } from './output.ts';

/**
 * An administrative command. On PostgreSQL it just connects (the API's instance lock is the server's alone). On
 * the embedded database it opens DATA_DIR itself when no server holds it, and otherwise asks the server that does
 * to run the command (local-channel.ts).
 */
export async function administer(
  config: Config,
  spec: AdminCommandSpec,
  argv: string[],
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    if (config.databaseUrl) return await runDirectly(config, spec, values, controller.signal);
    // Checked before the lock, which writes in DATA_DIR: a directory open to others is refused (data-dir.ts).
    ensurePrivateDir(config.dataDir);
    let lock;
    try {
      lock = await lockDataDir(config.dataDir, () => controller.abort());
    } catch (error) {
      if (!(error instanceof InstanceLockError)) throw error;
      return await runThroughServer(config, argv, controller.signal);
    }
    try {
      // Ours now (a server's files are its own business): what was left open to others in it is made private.
      makePrivate(config.dataDir);
      return await runDirectly(config, spec, values, controller.signal);
    } finally {
      await lock.release();
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

async function runDirectly(
  config: Config,
  spec: AdminCommandSpec,
  values: Record<string, string | boolean | undefined>,
  signal: AbortSignal,
): Promise<number> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: pgliteDir(config) });
  try {
    stdout.progress(`bookmaker: database: ${describeDatabase(config)}`);
    if (spec.words[0] !== 'migrate') {
      await migrateToLatest(database.db, {
        pending: (names) => stdout.progress(`bookmaker: migrating: ${names.join(', ')}`),
      });
    }
    const services = adminServices(database.db, config, systemClock);
    return await runCommand(spec, values, {
      db: database.db,
      clock: systemClock,
      services,
      out: stdout,
      signal,
      where: whereCommandsRun(config),
      onUnexpected: showDebugDetails,
    });
  } finally {
    await database.close();
  }
}

async function runThroughServer(config: Config, argv: string[], signal: AbortSignal): Promise<number> {
  const path = channelPath(config.dataDir);
  try {
    const exit = await runInServer(path, argv, stdout, signal);
    stdout.progress(`bookmaker: ran by the server that owns ${config.dataDir}`);
    return exit;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    stdout.progress(
      `bookmaker: another process holds the embedded database in ${config.dataDir}, and no server answers on ` +
        `${path} (${code}). If it is a command still running (demo live, ...), let it finish or stop it. If a ` +
        'server was killed, its lock expires 10 seconds after it stopped: run the command again then.',
    );
    return 1;
  }
}

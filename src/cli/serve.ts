/** `bookmaker serve`: its definition, and the server run from start-up to the signal that stops it. */
import { constants } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../platform/config.ts';
import { MigrationsInterrupted } from '../platform/db/migrate.ts';
import { chooseLogFormat, createLogger, logDestination } from '../platform/http/logging.ts';
import { startServer, StartupInterrupted, type RunningServer } from '../server.ts';
import type { AdminCommandSpec } from '../commands/definitions.ts';
import { fail } from './output.ts';

export const SERVE: AdminCommandSpec = {
  words: ['serve'],
  synopsis: '[--demo-live]',
  summary: 'start the API: migrates first, then listens on HOST:PORT',
  details: [
    '--demo-live also starts the live simulator, a feed producer in a process of its own (APP_ENV=development only).',
    'SIGTERM or SIGINT drain in-flight requests, stop the workers and close the database; during start-up they',
    'stop it at its next step (a migration under way commits or rolls back whole first). A second one exits at once.',
    'The log lines go to standard output: readable on a terminal, JSON lines otherwise (LOG_FORMAT=json|pretty).',
    'Only one API instance may run on a database; the administrative commands work beside it.',
  ].join('\n'),
  options: { 'demo-live': { type: 'boolean' } },
  run: () => Promise.resolve(),
};

/**
 * `serve`: the narration and the server's own lines share one log stream (JSON lines, or readable ones on a
 * terminal). SIGINT and SIGTERM are heard from the start: during start-up they stop it at its next step (a migration
 * under way commits or rolls back whole first); once serving, they drain and close; a second one exits at once.
 * Each says what it does and what state it leaves.
 */
export async function serve(config: Config, demoLive: boolean): Promise<number> {
  const stream = logDestination(1, chooseLogFormat(config.logFormat, process.stdout.isTTY === true));
  const log = createLogger(config.logLevel, stream);
  const startup = new AbortController();
  let running: RunningServer | undefined;
  let stopping: { signal: NodeJS.Signals; at: number } | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping && performance.now() - stopping.at < ONE_KEYPRESS_MS) return;
    if (stopping) return exitAtOnce(log, signal, running !== undefined);
    stopping = { signal, at: performance.now() };
    if (running) return drain(log, running, signal, config);
    log.warn(
      { signal },
      `${signal}: stopping the start-up at its next step (a migration under way commits or rolls back whole ` +
        `first); ${signal} again exits at once`,
    );
    startup.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    running = await startServer(config, {
      demoLive,
      logStream: stream,
      say: (line) => log.info(line),
      signal: startup.signal,
      onFatal: () => process.exit(1),
    });
  } catch (error) {
    if (!(error instanceof StartupInterrupted || error instanceof MigrationsInterrupted)) throw error;
    log.warn(error.message);
    process.exit(0);
  }
  // A signal heard while the server began to listen: it stops now.
  if (stopping) drain(log, running, stopping.signal, config);
  return 0;
}

/**
 * Signals this close together are one: `npm run` passes the terminal's Ctrl-C on to a process that the terminal has
 * already signalled. A person's second Ctrl-C comes later.
 */
const ONE_KEYPRESS_MS = 300;

/** The first signal once serving: no new request, those in flight answered, workers stopped, database closed. */
function drain(log: Logger, running: RunningServer, signal: NodeJS.Signals, config: Config): void {
  log.info(
    { signal },
    `${signal}: stopping: refusing new requests, finishing those in flight, then stopping the workers and closing ` +
      `the database; ${signal} again exits at once`,
  );
  running.stop().then(
    () => {
      log.info('stopped: every request in flight was answered, the workers stopped, the database is closed');
      process.exit(0);
    },
    (error: unknown) => process.exit(fail(error, config)),
  );
}

/** The second signal: out now, with the conventional 128 + signal number. The database keeps only what committed. */
function exitAtOnce(log: Logger, signal: NodeJS.Signals, serving: boolean): never {
  log.warn(
    { signal },
    serving
      ? `${signal} again: exiting at once; requests still in flight are cut off and what they had not committed ` +
          'is rolled back by the database; bets left pending are refused at the next start'
      : `${signal} again: exiting at once during start-up; a migration under way is rolled back whole by the ` +
          'database, those before it stay applied; run serve again to continue',
  );
  process.exit(128 + constants.signals[signal]);
}

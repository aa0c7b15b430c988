import { constants } from 'node:os';
import type { Logger } from 'pino';
import { systemClock } from '../platform/clock.ts';
import { ConfigError, dataDirOf, loadConfig, type Config } from '../platform/config.ts';
import { ensurePrivateDir, makePrivate } from '../platform/data-dir.ts';
import { openDatabase } from '../platform/db/database.ts';
import { migrateToLatest, MigrationsInterrupted } from '../platform/db/migrate.ts';
import { InstanceLockError, lockDataDir } from '../platform/db/instance-lock.ts';
import { VERSION } from '../platform/version.ts';
import { chooseLogFormat, createLogger, logDestination } from '../platform/http/logging.ts';
import {
  describeDatabase,
  pgliteDir,
  startServer,
  StartupError,
  StartupInterrupted,
  type RunningServer,
} from '../server.ts';
import type { UsageError } from '../commands/definitions.ts';
import {
  ADMIN_COMMANDS,
  adminServices,
  commandHelp,
  findCommand,
  parseCommandLine,
  runCommand,
  type AdminCommandSpec,
  type CommandSpec,
  type Output,
} from '../commands/definitions.ts';
import { debugDetails, explainFailure, type FailureContext } from '../commands/failures.ts';
import { channelPath } from '../commands/local-channel.ts';
import { runInServer } from './channel-client.ts';
import { RECONCILE_COMMAND } from './reconcile.ts';
import { WALLET_CERTIFY } from './wallet-certify.ts';

const SERVE: AdminCommandSpec = {
  words: ['serve'],
  synopsis: '[--demo-live]',
  summary: 'start the API: migrates first, then listens on HOST:PORT',
  details: [
    '--demo-live also runs the live simulator beside the API (APP_ENV=development only).',
    'SIGTERM or SIGINT drain in-flight requests, stop the workers and close the database; during start-up they',
    'stop it at its next step (a migration under way commits or rolls back whole first). A second one exits at once.',
    'The log lines go to standard output: readable on a terminal, JSON lines otherwise (LOG_FORMAT=json|pretty).',
    'Only one API instance may run on a database; the administrative commands work beside it.',
  ].join('\n'),
  options: { 'demo-live': { type: 'boolean' } },
  run: () => Promise.resolve(),
};

const COMMANDS: CommandSpec[] = [SERVE, ...ADMIN_COMMANDS, WALLET_CERTIFY, RECONCILE_COMMAND];

const synopsis = (spec: CommandSpec) => `${spec.words.join(' ')} ${spec.synopsis}`.trim();

/** The commands as help lists them, descriptions aligned after the longest synopsis of all commands. */
const WIDTH = Math.max(...COMMANDS.map((spec) => synopsis(spec).length)) + 3;
const line = (left: string, right: string) => `  ${left.padEnd(WIDTH)}${right}`;
const commandList = (specs: CommandSpec[]) => specs.map((spec) => line(synopsis(spec), spec.summary)).join('\n');

const USAGE = `Usage: bookmaker <command> [flags]

Commands:
${commandList(COMMANDS)}

${line('help [command], --help, -h', "this text, or a command's")}
${line('--version', 'the version')}

Configuration comes from the environment (PORT, DATABASE_URL, DATA_DIR, ...); see README.md.
`;

/** The commands sharing a first word (staff, demo), when that word alone is not a command. */
function group(word: string | undefined): CommandSpec[] {
  const members = COMMANDS.filter((spec) => spec.words[0] === word);
  return members.some((spec) => spec.words.length === 1) ? [] : members;
}

const groupUsage = (members: CommandSpec[]) =>
  `Usage: bookmaker ${members[0]!.words[0]} <command> [flags]\n\nCommands:\n${commandList(members)}\n\n` +
  `bookmaker help ${members[0]!.words[0]} <command> explains one.\n`;

const stdout: Output = {
  result: (line) => process.stdout.write(`${line}\n`),
  progress: (line) => process.stderr.write(`${line}\n`),
};

/** Runs the command line; resolves with the exit code (serve resolves once it listens and keeps running). */
export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`bookmaker ${VERSION}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') return help(rest);
  const members = group(first);
  if (members.length > 0 && (rest.length === 0 || rest[0] === '--help' || rest[0] === '-h')) {
    if (rest.length > 0) {
      process.stdout.write(groupUsage(members));
      return 0;
    }
    process.stderr.write(`bookmaker: ${first} needs a command\n\n${groupUsage(members)}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseCommandLine(COMMANDS, argv);
  } catch (error) {
    const spec = (error as UsageError).spec;
    const usage = spec ? commandHelp(spec) : group(first).length > 0 ? groupUsage(group(first)) : USAGE;
    process.stderr.write(`bookmaker: ${sentence((error as Error).message)}\n\n${usage}`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(commandHelp(parsed.spec));
    return 0;
  }
  let config: Config | undefined;
  try {
    // Runs on a partner's machine with the package alone: no configuration, no database.
    if ('standalone' in parsed.spec) return await parsed.spec.standalone(parsed.values, stdout, process.env);
    // Whatever this process creates (DATA_DIR, the secrets key, the lock, PGlite's directories) is its user's alone.
    process.umask(PRIVATE_UMASK);
    config = loadConfig();
    if (parsed.spec === SERVE) return await serve(config, parsed.values['demo-live'] === true);
    return await administer(config, parsed.spec, argv, parsed.values);
  } catch (error) {
    return fail(error, config);
  }
}

/** Group and others get no permission on anything the process creates. */
const PRIVATE_UMASK = 0o077;

/** Any failure of a command, said in one line with what to do; the stack only under LOG_LEVEL=debug or trace. */
function fail(error: unknown, config: Config | undefined): number {
  process.stderr.write(`bookmaker: ${explain(error, config)}\n`);
  showDebugDetails(error);
  return 1;
}

function explain(error: unknown, config: Config | undefined): string {
  if (error instanceof ConfigError) return `configuration error: ${error.message}`;
  if (error instanceof StartupError || error instanceof InstanceLockError) return error.message;
  return explainFailure(error, whereCommandsRun(config));
}

function whereCommandsRun(config: Config | undefined): FailureContext {
  return {
    dataDir: config?.dataDir ?? dataDirOf(),
    database: config?.databaseUrl ? describeDatabase(config) : undefined,
  };
}

function showDebugDetails(error: unknown): void {
  const details = debugDetails(error, process.env.LOG_LEVEL);
  if (details) process.stderr.write(`${details}\n`);
}

function help(words: string[]): number {
  if (words.length === 0) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (words.length === 1 && group(words[0]).length > 0) {
    process.stdout.write(groupUsage(group(words[0])));
    return 0;
  }
  try {
    process.stdout.write(commandHelp(findCommand(COMMANDS, words)));
    return 0;
  } catch (error) {
    process.stderr.write(`bookmaker: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
}

/** Node's own messages start with a capital; ours, after "bookmaker: ", do not. */
function sentence(message: string): string {
  return message.charAt(0).toLowerCase() + message.slice(1);
}

/**
 * `serve`: the narration and the server's own lines share one log stream (JSON lines, or readable ones on a
 * terminal). SIGINT and SIGTERM are heard from the start: during start-up they stop it at its next step (a migration
 * under way commits or rolls back whole first); once serving, they drain and close; a second one exits at once.
 * Each says what it does and what state it leaves.
 */
async function serve(config: Config, demoLive: boolean): Promise<number> {
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

/**
 * An administrative command. On PostgreSQL it just connects (the API's instance lock is the server's alone). On
 * the embedded database it opens DATA_DIR itself when no server holds it, and otherwise asks the server that does
 * to run the command (local-channel.ts).
 */
async function administer(
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

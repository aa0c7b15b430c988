import { parseArgs } from 'node:util';
import { AuditLog } from '../platform/audit.ts';
import { systemClock } from '../platform/clock.ts';
import { ConfigError, loadConfig, type Config } from '../platform/config.ts';
import { SecretBox } from '../platform/crypto.ts';
import { migrateToLatest } from '../platform/db/database.ts';
import { InstanceLockError } from '../platform/db/instance-lock.ts';
import { AppError } from '../platform/errors.ts';
import { openOwnedDatabase, startServer } from '../server.ts';
import { StaffService } from '../staff/service.ts';
import { randomSource, seedDemoCatalog, simulateLiveTick } from '../catalog/demo.ts';
import { CatalogService } from '../catalog/service.ts';

const USAGE = `Usage: bookmaker <command>

Commands:
  serve [--demo-live]                     start the API (migrates first); --demo-live also runs the live
                                          simulator (APP_ENV=development only)
  migrate                                 apply pending database migrations
  staff create --email E --password P --role R [--tenant T]
                                          create a staff account; prints { id, email, role, totpSecret, otpauthUrl }
  demo seed                               fill an empty database with a demo catalog
  demo live [--ticks N] [--interval MS]   run the live simulator (odds, suspensions, scores) until stopped

Configuration comes from the environment; see README.md.`;

type Command = (config: Config, args: string[]) => Promise<void>;

const commands: Record<string, Command> = {
  serve: async (config, args) => {
    const { values } = parseArgs({ args, options: { 'demo-live': { type: 'boolean' } }, strict: true });
    const server = await startServer(config, { demoLive: values['demo-live'] === true });
    const shutdown = (signal: string) => {
      server.app.http.log.info({ signal }, 'shutting down');
      server.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  },

  migrate: async (config) => {
    await withDatabase(config, async ({ db }) => {
      const applied = await migrateToLatest(db);
      process.stdout.write(`${JSON.stringify({ applied })}\n`);
    });
  },

  demo: async (config, args) => {
    const [sub, ...rest] = args;
    const { values } = parseArgs({ args: rest, options: { ticks: { type: 'string' }, interval: { type: 'string' } }, strict: true });
    await withDatabase(config, async ({ db }) => {
      await migrateToLatest(db);
      const catalog = new CatalogService({ db, clock: systemClock, audit: new AuditLog(systemClock) });
      if (sub === 'seed') {
        process.stdout.write(`${JSON.stringify(await seedDemoCatalog(catalog, db, systemClock))}\n`);
        return;
      }
      if (sub !== 'live') throw new UsageError('unknown demo command; expected "demo seed" or "demo live"');
      const ticks = values.ticks === undefined ? Number.POSITIVE_INFINITY : positiveInteger('--ticks', values.ticks);
      const interval = values.interval === undefined ? 3_000 : positiveInteger('--interval', values.interval);
      let stopped = false;
      process.once('SIGINT', () => (stopped = true));
      process.once('SIGTERM', () => (stopped = true));
      const random = randomSource(Date.now());
      for (let tick = 1; tick <= ticks && !stopped; tick++) {
        const changes = await simulateLiveTick(catalog, db, systemClock, random);
        process.stdout.write(`${JSON.stringify({ tick, changes })}\n`);
        if (tick < ticks) await new Promise((resolve) => setTimeout(resolve, interval));
      }
    });
  },

  staff: async (config, args) => {
    const [sub, ...rest] = args;
    if (sub !== 'create') throw new UsageError('unknown staff command; expected "staff create"');
    const { values } = parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        role: { type: 'string' },
        tenant: { type: 'string' },
      },
      strict: true,
    });
    if (!values.email || !values.password || !values.role) {
      throw new UsageError('staff create needs --email, --password and --role');
    }
    await withDatabase(config, async ({ db }) => {
      await migrateToLatest(db);
      const service = new StaffService({
        db,
        clock: systemClock,
        secrets: new SecretBox(config.secretsKeys),
        audit: new AuditLog(systemClock),
      });
      const created = await service.create({
        email: values.email!,
        password: values.password!,
        role: values.role!,
        tenantId: values.tenant,
      });
      const { id, email, role, totpSecret, otpauthUrl } = created;
      process.stdout.write(`${JSON.stringify({ id, email, role, totpSecret, otpauthUrl })}\n`);
    });
  },
};

class UsageError extends Error {}

function positiveInteger(flag: string, value: string): number {
  if (!/^[1-9][0-9]{0,8}$/.test(value)) throw new UsageError(`${flag} must be a positive integer`);
  return Number(value);
}

async function withDatabase(config: Config, work: (db: { db: import('../platform/db/database.ts').Db }) => Promise<void>) {
  const { database, lock } = await openOwnedDatabase(config, () => {});
  try {
    await work(database);
  } finally {
    await database.close();
    await lock.release();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(`${name ? `Unknown command "${name}".\n\n` : ''}${USAGE}\n`);
    return 2;
  }
  try {
    await command(loadConfig(), args);
    return 0;
  } catch (error) {
    process.stderr.write(`bookmaker ${name}: ${describe(error)}\n`);
    return 1;
  }
}

function describe(error: unknown): string {
  if (error instanceof ConfigError) return `configuration error: ${error.message}`;
  if (error instanceof UsageError) return `${error.message}\n\n${USAGE}`;
  if (error instanceof InstanceLockError) return error.message;
  if (error instanceof AppError) return `${error.code}: ${error.message}`;
  if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
    return `${error.message}\n\n${USAGE}`;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * The administrative commands (`bookmaker migrate`, `staff create`, `demo seed`, `demo live`): what each takes,
 * and what it does with a database. They run in the CLI process, connected straight to the database, or inside
 * the running server when it owns the embedded database (see local-channel.ts); either way the same code runs.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CatalogService } from '../catalog/service.ts';
import { Ingestion } from '../feed/ingestion.ts';
import { Producers } from '../feed/producers.ts';
import { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import { SecretBox } from '../platform/crypto.ts';
import type { Db } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { AppError } from '../platform/errors.ts';
import { STAFF_ROLES } from '../platform/http/principals.ts';
import { seedDemoCatalog } from '../seed/demo-catalog.ts';
import { StaffService } from '../staff/service.ts';
import { explainFailure, type FailureContext } from './failures.ts';

/** What a command writes: results on stdout (one JSON object a line, for scripts), progress on stderr. */
export interface Output {
  result(line: string): void;
  progress(line: string): void;
}

/** The services administrative commands use, over one database. */
export interface AdminServices {
  staff: StaffService;
  catalog: CatalogService;
  producers: Producers;
  ingestion: Ingestion;
}

export interface CommandContext {
  db: Db;
  clock: Clock;
  services: AdminServices;
  out: Output;
  /** Aborted when the person stops the command (Ctrl-C), or the server shuts down. */
  signal: AbortSignal;
  /** Where the command runs (DATA_DIR, the database), so that its failure can say what it concerns. */
  where?: FailureContext;
  /**
   * Told of a failure that is neither a usage mistake nor a refusal of the service (AppError), after its one line
   * was written: to log its stack (the server), or show it under LOG_LEVEL=debug (the CLI).
   */
  onUnexpected?: (error: unknown) => void;
}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface CommandBase {
  /** The words that name it: ['staff', 'create']. */
  words: string[];
  /** Its flags, as they appear in help. */
  synopsis: string;
  summary: string;
  /** More than one line of help: what it prints, an example. */
  details: string;
  options: Options;
  required?: string[];
}

/** A command on the service's database, run beside a server or through it. */
export interface AdminCommandSpec extends CommandBase {
  run(context: CommandContext, values: Values): Promise<void>;
}

/**
 * A command for a partner's machine with the package alone (wallet certify, reconcile): no configuration, no
 * database. It resolves with its exit code.
 */
export interface StandaloneCommandSpec extends CommandBase {
  standalone(values: Values, out: Output, env: NodeJS.ProcessEnv): Promise<number>;
}

export type CommandSpec = AdminCommandSpec | StandaloneCommandSpec;

/** A mistake in the command line: said on stderr with the command's usage, exit code 2. */
export class UsageError extends Error {
  readonly spec: CommandSpec | undefined;
  constructor(message: string, spec?: CommandSpec) {
    super(message);
    this.name = 'UsageError';
    this.spec = spec;
  }
}

export function adminServices(db: Db, config: Config, clock: Clock): AdminServices {
  const audit = new AuditLog(clock);
  const catalog = new CatalogService({ db, clock, audit });
  const producers = new Producers({ db, clock, audit, catalog, silenceSeconds: config.feedSilenceSeconds });
  return {
    staff: new StaffService({ db, clock, secrets: new SecretBox(config.secretsKeys), audit }),
    catalog,
    producers,
    // no settler: the commands that run without the server seed fixtures and prices, never results
    ingestion: new Ingestion({ db, clock, catalog, producers }),
  };
}

const json = (value: unknown) => JSON.stringify(value);

export const ADMIN_COMMANDS: AdminCommandSpec[] = [
  {
    words: ['migrate'],
    synopsis: '',
    summary: 'apply pending database migrations',
    details: 'Prints { "applied": [...] }: the migrations this run applied (none when the database is up to date).',
    options: {},
    run: async ({ db, out }) => {
      const applied = await migrateToLatest(db, {
        pending: (names) => out.progress(`bookmaker: migrating: ${names.join(', ')}`),
      });
      out.result(json({ applied }));
    },
  },
  {
    words: ['staff', 'create'],
    synopsis: '--email E --password P --role R [--tenant T] [--enrol-now]',
    summary: 'create a staff account',
    details: [
      `--role is one of ${STAFF_ROLES.join(', ')}; an operator needs --tenant (its tenant id), the other roles none.`,
      'The password needs 12 to 256 characters. Prints one JSON object:',
      '  { "id", "email", "role", "enrolled": false, "next" }',
      'The account enrols its authenticator app at its first sign-in: sign in at /admin (or POST',
      '/api/v1/admin/auth/login without a code) with the e-mail and password, add the secret shown, send its code.',
      '',
      '--enrol-now enrols an authenticator at once instead, for scripts and tests; it prints',
      '  { "id", "email", "role", "totpSecret", "otpauthUrl" }',
      'with the TOTP secret shown this once: add it (or the otpauthUrl as a QR code) to an authenticator app.',
      '',
      'Example:',
      "  npx bookmaker staff create --email admin@example.com --password 'a long passphrase' --role platform_admin",
    ].join('\n'),
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      tenant: { type: 'string' },
      'enrol-now': { type: 'boolean' },
    },
    required: ['email', 'password', 'role'],
    run: async ({ services, out }, values) => {
      const input = {
        email: values.email as string,
        password: values.password as string,
        role: values.role as string,
        tenantId: values.tenant as string | undefined,
      };
      if (values['enrol-now'] === true) {
        const { id, email, role, totpSecret, otpauthUrl } = await services.staff.create(input);
        out.result(json({ id, email, role, totpSecret, otpauthUrl }));
        return;
      }
      const { id, email, role } = await services.staff.createForEnrolment(input);
      const next =
        'sign in at /admin with this e-mail and password: the console shows the authenticator secret to add, ' +
        'then asks for its first code';
      out.result(json({ id, email, role, enrolled: false, next }));
    },
  },
  {
    words: ['demo', 'seed'],
    synopsis: '',
    summary: 'fill an empty catalog with a demo: three sports, seven leagues, thirty events',
    details: 'Prints the counts it created. Refuses a catalog that already has sports.',
    options: {},
    run: async ({ clock, services, out }) => {
      out.result(json(await seedDemoCatalog(services, clock, (line) => out.progress(`bookmaker: ${line}`))));
    },
  },
];

/** The command an argument list names; throws UsageError when it names none. */
export function findCommand<Spec extends CommandSpec>(commands: Spec[], argv: string[]): Spec {
  const spec = commands
    .filter((candidate) => candidate.words.every((word, index) => argv[index] === word))
    .sort((a, b) => b.words.length - a.words.length)[0];
  if (!spec) {
    const family = commands.filter((candidate) => candidate.words[0] === argv[0]);
    if (family.length > 0) {
      const known = family.map((candidate) => `"${candidate.words.join(' ')}"`).join(' or ');
      throw new UsageError(`unknown ${argv[0]} command${argv[1] ? ` "${argv[1]}"` : ''}; expected ${known}`);
    }
    throw new UsageError(`unknown command "${argv.join(' ')}"`);
  }
  return spec;
}

/** The command an argument list names, and its parsed flags; throws UsageError for anything else. */
export function parseCommandLine<Spec extends CommandSpec>(
  commands: Spec[],
  argv: string[],
): { spec: Spec; values: Values; help: boolean } {
  const spec = findCommand(commands, argv);
  let values: Values;
  try {
    ({ values } = parseArgs({
      args: argv.slice(spec.words.length),
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, spec);
  }
  if (values.help) return { spec, values, help: true };
  const missing = (spec.required ?? []).filter((name) => values[name] === undefined || values[name] === '');
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((name) => `--${name}`).join(', ')}`, spec);
  return { spec, values, help: false };
}

/** Runs a parsed command and turns its failure into lines on stderr and an exit code. */
export function runCommand(spec: AdminCommandSpec, values: Values, context: CommandContext): Promise<number> {
  return exitCodeOf(spec, () => spec.run(context, values), context);
}

/**
 * Runs a command's work: 0 when it is done; a usage mistake said with the usage (2); anything else in one line (1).
 */
export async function exitCodeOf(
  spec: CommandSpec,
  work: () => Promise<void>,
  context: Pick<CommandContext, 'out' | 'where' | 'onUnexpected'>,
): Promise<number> {
  try {
    await work();
    return 0;
  } catch (error) {
    context.out.progress(`bookmaker ${spec.words.join(' ')}: ${describeFailure(error, spec, context.where)}`);
    if (!(error instanceof UsageError) && !(error instanceof AppError)) context.onUnexpected?.(error);
    return error instanceof UsageError ? 2 : 1;
  }
}

export function commandHelp(spec: CommandSpec): string {
  return `Usage: bookmaker ${spec.words.join(' ')}${spec.synopsis ? ` ${spec.synopsis}` : ''}\n\n${spec.summary}.\n${spec.details}\n`;
}

/** A usage mistake with the command's usage; anything else in one line (failures.ts). */
function describeFailure(error: unknown, spec?: CommandSpec, where?: FailureContext): string {
  if (error instanceof UsageError) return `${error.message}\n\n${commandHelp(error.spec ?? spec!)}`;
  return explainFailure(error, where);
}

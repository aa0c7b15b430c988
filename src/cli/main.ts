/** The `bookmaker` command: the command line read, then help, the version, serve or an administrative command. */
import { loadConfig, type Config } from '../platform/config.ts';
import { VERSION } from '../platform/version.ts';
import { commandHelp, parseCommandLine, type UsageError } from '../commands/definitions.ts';
import { administer } from './administer.ts';
import { fail, stdout } from './output.ts';
import { serve, SERVE } from './serve.ts';
import { COMMANDS, group, groupUsage, help, USAGE } from './usage.ts';

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

/** Node's own messages start with a capital; ours, after "bookmaker: ", do not. */
function sentence(message: string): string {
  return message.charAt(0).toLowerCase() + message.slice(1);
}

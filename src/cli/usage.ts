/** The commands the CLI knows, and its help: every command, a group's (staff, demo, ...), one command's. */
import { ADMIN_COMMANDS, commandHelp, findCommand, type CommandSpec } from '../commands/definitions.ts';
import { DEMO_LIVE } from './demo-live.ts';
import { RECONCILE_COMMAND } from './reconcile.ts';
import { SANDBOX_TOUR } from './sandbox-tour.ts';
import { SERVE } from './serve.ts';
import { WALLET_CERTIFY } from './wallet-certify.ts';

export const COMMANDS: CommandSpec[] = [
  SERVE,
  ...ADMIN_COMMANDS,
  DEMO_LIVE,
  WALLET_CERTIFY,
  RECONCILE_COMMAND,
  SANDBOX_TOUR,
];

const synopsis = (spec: CommandSpec) => `${spec.words.join(' ')} ${spec.synopsis}`.trim();

/** The commands as help lists them, descriptions aligned after the longest synopsis of all commands. */
const WIDTH = Math.max(...COMMANDS.map((spec) => synopsis(spec).length)) + 3;
const line = (left: string, right: string) => `  ${left.padEnd(WIDTH)}${right}`;
const commandList = (specs: CommandSpec[]) => specs.map((spec) => line(synopsis(spec), spec.summary)).join('\n');

export const USAGE = `Usage: bookmaker <command> [flags]

Commands:
${commandList(COMMANDS)}

${line('help [command], --help, -h', "this text, or a command's")}
${line('--version', 'the version')}

Configuration comes from the environment (PORT, DATABASE_URL, DATA_DIR, ...); see README.md.
`;

/** The commands sharing a first word (staff, demo), when that word alone is not a command. */
export function group(word: string | undefined): CommandSpec[] {
  const members = COMMANDS.filter((spec) => spec.words[0] === word);
  return members.some((spec) => spec.words.length === 1) ? [] : members;
}

export const groupUsage = (members: CommandSpec[]) =>
  `Usage: bookmaker ${members[0]!.words[0]} <command> [flags]\n\nCommands:\n${commandList(members)}\n\n` +
  `bookmaker help ${members[0]!.words[0]} <command> explains one.\n`;

export function help(words: string[]): number {
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

/**
 * DATA_DIR holds the embedded database, the development secrets key, the instance lock and the local channel's
 * socket: all of it belongs to the user that runs Bookmaker, and to no one else. PostgreSQL's own rule, kept here:
 * a data directory that group or others may enter is refused, never repaired behind the operator's back (it may be
 * a shared directory set by mistake, where `chmod -R` would do harm, and whoever could read it may have copied the
 * key already). Inside a directory that passes, everything is made 0700 (directories) or 0600 (files), because
 * PGlite sets the modes of the files it writes itself (0666 for those initdb writes), whatever the process umask.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;

/** Where the embedded database lives inside DATA_DIR. */
export const pgliteDir = (config: { dataDir: string }): string => join(config.dataDir, 'pglite');
/** Permission bits of group and others: none may be set anywhere in a data directory. */
const GROUP_AND_OTHERS = 0o077;

/** A data directory that cannot be used as it is; the message says what to do, in one line. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirError';
  }
}

/** Windows has no such modes (nor getuid): the checks are Unix-only. */
const UNIX = process.platform !== 'win32';

/**
 * Creates `dir` private to this user (0700, whatever the umask), or checks an existing one: a directory, owned by
 * this user, that group and others can neither read, write nor enter. `variable` names the setting that chose it.
 */
export function ensurePrivateDir(dir: string, variable = 'DATA_DIR'): void {
  const stats = statOrUndefined(dir);
  if (!stats) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    // mkdir's mode passes through the umask, which may take more than group and others away.
    if (UNIX) chmodSync(dir, PRIVATE_DIR_MODE);
    return;
  }
  if (!stats.isDirectory()) {
    throw new DataDirError(`${variable} ${dir} is not a directory: set ${variable} to a directory (made if missing)`);
  }
  if (!UNIX) return;
  const uid = process.getuid!();
  if (stats.uid !== uid) {
    throw new DataDirError(
      `${variable} ${dir} belongs to another user (uid ${stats.uid}, this process runs as uid ${uid}): run ` +
        `bookmaker as the user that owns it, or set ${variable} to a directory of your own`,
    );
  }
  if ((stats.mode & PRIVATE_DIR_MODE) !== PRIVATE_DIR_MODE) {
    throw new DataDirError(
      `${variable} ${dir} is not usable by its owner (mode ${octal(stats.mode)}): run chmod 700 ${shellQuoted(dir)} ` +
        'and try again',
    );
  }
  if (stats.mode & GROUP_AND_OTHERS) {
    throw new DataDirError(
      `${variable} ${dir} is open to other users (mode ${octal(stats.mode)}; it must be 0700: only its owner may ` +
        `use it): run chmod -R go-rwx ${shellQuoted(dir)} and try again`,
    );
  }
}

/**
 * Takes every permission of group and others from `path` and, for a directory, from everything under it, as
 * `chmod -R go-rwx` would: directories end 0700, files 0600. Symbolic links are neither changed nor followed.
 * Only for paths inside a directory ensurePrivateDir accepted: they are this deployment's own files. A file of
 * another user (left by a run as root, say) is refused: this user could not change it, and might not read it.
 */
export function makePrivate(path: string): void {
  if (!UNIX) return;
  const uid = process.getuid!();
  const pending = [path];
  while (pending.length > 0) {
    const next = pending.pop()!;
    const stats = lstatOrUndefined(next);
    if (!stats || stats.isSymbolicLink()) continue;
    if (stats.uid !== uid) {
      throw new DataDirError(
        `${next} belongs to another user (uid ${stats.uid}, this process runs as uid ${uid}; was bookmaker run as ` +
          `that user?): give it back with chown -R ${uid} ${shellQuoted(path)} (as root) and try again`,
      );
    }
    if (stats.mode & GROUP_AND_OTHERS) unlessGone(() => chmodSync(next, stats.mode & 0o7777 & ~GROUP_AND_OTHERS));
    if (!stats.isDirectory()) continue;
    for (const name of unlessGone(() => readdirSync(next)) ?? []) pending.push(join(next, name));
  }
}

const statOrUndefined = (path: string) => unlessGone(() => statSync(path));

const lstatOrUndefined = (path: string) => unlessGone(() => lstatSync(path));

/** A file removed (by PGlite, say) between listing its directory and changing it is no longer anyone's concern. */
function unlessGone<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/** The path as a shell word, so the printed command can be pasted as it is. */
export function shellQuoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

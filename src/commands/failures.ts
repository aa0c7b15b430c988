/**
 * What the CLI says when something fails: one line naming what is wrong and what to do, never a stack trace (the
 * person running a command needs the next step; LOG_LEVEL=debug adds the stack for whoever debugs it).
 */
import { DataDirError, shellQuoted } from '../platform/data-dir.ts';
import { AppError } from '../platform/errors.ts';

export interface FailureContext {
  /** DATA_DIR, when the failure may concern its files. */
  dataDir?: string | undefined;
  /** The database as describeDatabase() names it ("PostgreSQL at host:5432/name"), when connecting to one. */
  database?: string | undefined;
}

type Failure = Error & { code?: unknown; syscall?: unknown; path?: unknown; address?: unknown; port?: unknown };

/** Node's answers when a server cannot be reached at all. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The one line (without the "bookmaker: " prefix) for any failure of a command. */
export function explainFailure(error: unknown, context: FailureContext = {}): string {
  if (error instanceof DataDirError) return error.message;
  if (error instanceof AppError) return `${error.code}: ${error.message}`;
  if (!(error instanceof Error)) return unexpected(String(error));
  const failure = error as Failure;
  const code = typeof failure.code === 'string' ? failure.code : undefined;
  if (code && UNREACHABLE.has(code)) return unreachable(failure, code, context);
  if (code && /^[0-9A-Z]{5}$/.test(code) && 'severity' in failure) return databaseRefusal(failure, code, context);
  if (code && typeof failure.syscall === 'string') {
    const path = typeof failure.path === 'string' ? failure.path : undefined;
    return fileProblem(code, failure.syscall, path, failure.message, context);
  }
  return unexpected(error.message);
}

/** The stack of an unexpected failure, for LOG_LEVEL=debug or trace only. */
export function debugDetails(error: unknown, logLevel: string | undefined): string | undefined {
  if (!/^(debug|trace)$/.test(logLevel?.trim() ?? '') || !(error instanceof Error)) return undefined;
  return error.stack;
}

function unexpected(message: string): string {
  return `unexpected error: ${message}. Run the command again with LOG_LEVEL=debug to see where it happened, and report it`;
}

function unreachable(failure: Failure, code: string, { database }: FailureContext): string {
  const where =
    database ??
    (typeof failure.address === 'string'
      ? `the database at ${failure.address}:${String(failure.port)}`
      : 'the database');
  return `cannot connect to ${where} (${code}): check that it is running and reachable, or correct DATABASE_URL`;
}

/** An answer of PostgreSQL itself (SQLSTATE): at connection time, about the URL's user, password or database. */
function databaseRefusal(failure: Failure, code: string, { database }: FailureContext): string {
  const where = database ?? 'PostgreSQL';
  if (code.startsWith('28') || code === '3D000') {
    return `${where} refused the connection: ${failure.message}: correct the user, password or database name in DATABASE_URL`;
  }
  if (code === '53300' || code === '57P03') {
    return `${where} cannot take the connection now: ${failure.message}: try again in a moment`;
  }
  return unexpected(`the database answered ${failure.message} (SQLSTATE ${code})`);
}

/** A file system error of Node's: which file, and what the person can do about it. */
function fileProblem(
  code: string,
  syscall: string,
  path: string | undefined,
  message: string,
  { dataDir }: FailureContext,
): string {
  const cannot = path ? `cannot ${syscall} ${path}` : `cannot ${syscall} a file`;
  const dataDirNamed = dataDir ? `DATA_DIR (${dataDir})` : 'DATA_DIR';
  const dir = dataDir ? shellQuoted(dataDir) : '<DATA_DIR>';
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return (
        `${cannot}: permission denied. Run bookmaker as the user that owns ${dataDirNamed}, and let that user read ` +
        `and write everything in it: chown -R <user> ${dir} && chmod -R u+rwX ${dir}`
      );
    case 'ENOENT':
      return `${cannot}: no such file or directory. Check that ${dataDirNamed} is the directory you meant, and that nothing removed it`;
    case 'ENOTDIR':
      return `${cannot}: a part of this path is a file, not a directory. Set DATA_DIR to a directory (made if missing)`;
    case 'EISDIR':
      return `${cannot}: it is a directory where a file was expected. Move it aside, then try again`;
    case 'EEXIST':
      return `${cannot}: something that is not a directory is in the way. Move it aside, then try again`;
    case 'EROFS':
      return `${cannot}: the file system is read-only. Set DATA_DIR to a directory on a writable one`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `${cannot}: no space left on the device. Free some space, then try again`;
    default:
      return unexpected(message);
  }
}

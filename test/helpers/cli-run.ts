import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './process.ts';

/**
 * The CLI run as a person runs it, with an environment of its own (never the suite's DATABASE_URL): what the
 * failure tests (test/cli-failures.test.ts, test/cli-postgres-failures.test.ts) start and judge.
 */
/** A secrets key for the commands' DATA_DIR. */
export const KEY = Buffer.alloc(32, 5).toString('base64');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `bookmaker <args>` in a clean development environment (no SECRETS_KEY unless given), optionally as another user. */
export function bookmaker(
  env: Record<string, string>,
  args: string[],
  as?: { uid: number; gid: number },
): Promise<Run> {
  const command = as
    ? ['setpriv', `--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups', process.execPath, BIN, ...args]
    : [process.execPath, BIN, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      APP_ENV: 'development',
      PORT: '0',
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  // A server that should have refused to start would never end: give up on it.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Exit 1 and exactly these stderr lines: what is wrong and what to do, no stack trace. */
export function assertFails(run: Run, stderr: string | RegExp): void {
  assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
  if (typeof stderr === 'string') assert.equal(run.stderr, stderr);
  else assert.match(run.stderr, stderr);
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stdout, '');
}

export const tempDir = () => mkdtempSync(join(tmpdir(), 'bookmaker-failures-'));

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SECRETS_KEY } from './app.ts';
import { pgliteDir } from '../../src/platform/data-dir.ts';
import { createPostgresDatabase, dropPostgresDatabase, migratedDeploymentDatabase } from './database.ts';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'bookmaker.js');

/** The environment of a real deployment: its own DATA_DIR, and its own PostgreSQL database when testing on one. */
export async function deploymentEnv(
  options: {
    /** its database already migrated, as a first start leaves it (for a test whose subject is not the migrations) */
    migrated?: boolean;
  } = {},
): Promise<{ env: Record<string, string>; dispose: () => Promise<void> }> {
  const env: Record<string, string> = {
    APP_ENV: 'development',
    SECRETS_KEY: TEST_SECRETS_KEY,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bookmaker-process-')),
    PORT: '0',
    // Any free port: test files run in parallel, and a developer's own server may hold the default 9464.
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
  };
  const server = process.env.DATABASE_URL;
  if (options.migrated) {
    const url = await migratedDeploymentDatabase({ baseUrl: server, pgliteDir: pgliteDir({ dataDir: env.DATA_DIR! }) });
    if (url) env.DATABASE_URL = url;
  } else if (server) env.DATABASE_URL = await createPostgresDatabase(server);
  return {
    env,
    dispose: async () => {
      if (env.DATABASE_URL) await dropPostgresDatabase(env.DATABASE_URL);
    },
  };
}

/** Runs `bookmaker <args>` to completion on the pinned Node. */
export function runCli(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...inherited, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `bookmaker serve` and resolves once it has said it is ready; rejects with its output if it exits first. */
export function startServe(env: Record<string, string>, flags: string[] = []): Promise<ServeProcess> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, 'serve', ...flags], { env: { ...inherited, ...env, LOG_LEVEL: 'info' } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /API reference: (http:\/\/[0-9.:]+)\/docs/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve({ child, url: match[1]!, output: () => output, exited });
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`serve exited: ${output}`));
    });
  });
}

/**
 * Starts `bookmaker serve` again after the previous process was killed: the embedded database's lock file outlives a
 * killed process until it goes stale (10 s), and the new process says so; it is tried again until then.
 */
export async function restartServe(env: Record<string, string>): Promise<ServeProcess> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await startServe(env);
    } catch (error) {
      if (Date.now() > deadline || !/already using the embedded database/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** Polls `probe` until it answers something other than undefined. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

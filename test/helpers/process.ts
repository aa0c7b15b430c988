import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SECRETS_KEY } from './app.ts';
import { createPostgresDatabase, dropPostgresDatabase } from './database.ts';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'bookmaker.js');

/** The environment of a real deployment: its own DATA_DIR, and its own PostgreSQL database when testing on one. */
export async function deploymentEnv(): Promise<{ env: Record<string, string>; dispose(): Promise<void> }> {
  const env: Record<string, string> = {
    APP_ENV: 'development',
    SECRETS_KEY: TEST_SECRETS_KEY,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bookmaker-process-')),
    PORT: '0',
    LOG_LEVEL: 'warn',
  };
  if (process.env.DATABASE_URL) env.DATABASE_URL = await createPostgresDatabase(process.env.DATABASE_URL);
  return {
    env,
    dispose: async () => {
      if (env.DATABASE_URL) await dropPostgresDatabase(env.DATABASE_URL);
    },
  };
}

/** Runs `bookmaker <args>` to completion on the pinned Node. */
export function runCli(env: Record<string, string>, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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

/** Starts `bookmaker serve` and resolves once it listens; rejects with its output if it exits first. */
export function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...inherited, ...env, LOG_LEVEL: 'info' } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Server listening at (http:\/\/[0-9.:]+)/.exec(output);
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

// What the fault soak (bench/soak.ts) runs on: a seeded generator, the reference wallet and `bookmaker serve` in
// processes of their own, and an HTTP client that rides out the service's deaths.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BIN } from '../test/helpers/process.ts';

const ROOT = join(import.meta.dirname, '..');

/** A small seeded generator (mulberry32): the same seed makes the same choices, so a failure can be replayed. */
export class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed | 0;
  }
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(this.#state ^ (this.#state >>> 15), 1 | this.#state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
  /** A generator of its own, so that one stream of choices does not shift another's. */
  fork(): Random {
    return new Random(Math.floor(this.next() * 4_294_967_296));
  }
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** One HTTP call; throws when no answer came (connection refused or reset, timeout). */
export async function http(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(base + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** The reference wallet in its own process, with its test controls (faults, players, journal). */
export interface WalletProcess {
  url: string;
  control(method: string, path: string, body?: unknown): Promise<any>;
  stop(): Promise<void>;
}

export async function startWalletProcess(databaseUrl: string | undefined): Promise<WalletProcess> {
  const controlToken = randomBytes(16).toString('hex');
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [join(ROOT, 'reference-wallet', 'main.ts')], {
    env: {
      ...inherited,
      WALLET_PORT: '0',
      WALLET_HOST: '127.0.0.1',
      WALLET_CONTROL_TOKEN: controlToken,
      ...(databaseUrl ? { WALLET_DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-8_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve((JSON.parse(line) as { wallet: string }).wallet);
    });
    void exited.then(() => reject(new Error(`the reference wallet exited: ${errors}`)));
  });
  return {
    url,
    control: async (method, path, body) => {
      const answer = await http(url, method, `/_control${path}`, {
        headers: { 'x-control-token': controlToken },
        ...(method === 'GET' ? {} : { body: body ?? {} }),
      });
      if (answer.status !== 200) throw new Error(`wallet control ${method} ${path}: ${answer.status} ${answer.text}`);
      return answer.body;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `bookmaker serve` in a process of its own. */
export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** The last lines it wrote (stdout and stderr), for a report when it fails. */
  output(): string;
  exited: Promise<number | null>;
}

function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...inherited, ...env } });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-32_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /API reference: (http:\/\/[0-9.:]+)\/docs/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve({ child, url: match[1]!, output: () => output, exited });
      }
    }, 25);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`bookmaker serve exited: ${output}`));
    });
  });
}

/**
 * Starts `bookmaker serve`; after a SIGKILL the embedded database's lock file outlives the process until it goes
 * stale (10 s), and the new process says so: it is tried again until then.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    try {
      return await startService(env);
    } catch (error) {
      if (performance.now() > deadline || !/already using the embedded database/.test(String(error))) throw error;
      await sleep(500);
    }
  }
}

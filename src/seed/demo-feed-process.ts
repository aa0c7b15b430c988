/**
 * `serve --demo-live`: the demo's live simulator started beside the server as a process of its own, a feed client
 * like any provider's adapter (`bookmaker demo live`). The server registers the `demo` producer if needed and issues
 * it a new key for this run, which the child gets in its environment (never on its command line).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Producers } from '../feed/producers.ts';
import { DEMO_PRODUCER, ensureDemoProducer, SEEDER } from './demo-catalog.ts';

const CLI = fileURLToPath(new URL('../../bin/bookmaker.js', import.meta.url));
/** A simulator that does not stop on SIGTERM within this long is killed. */
const STOP_MS = 5_000;

export interface DemoFeedProcess {
  stop(): Promise<void>;
}

/** Starts the simulator against the server at `url`; its output goes to the server's log. */
export async function startDemoFeed(
  producers: Producers,
  url: string,
  log: FastifyBaseLogger,
): Promise<DemoFeedProcess> {
  await ensureDemoProducer(producers);
  const { key } = await producers.issueKey(SEEDER, DEMO_PRODUCER);
  const child = spawn(process.execPath, [CLI, 'demo', 'live', '--url', url], {
    env: { ...process.env, BOOKMAKER_FEED_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  let stopping = false;
  createInterface({ input: child.stdout }).on('line', (line) => log.debug({ demoFeed: line }, 'demo live simulator'));
  createInterface({ input: child.stderr }).on('line', (line) => log.info({ demoFeed: line }, 'demo live simulator'));
  child.on('exit', (code, signal) => {
    if (!stopping) log.warn({ code, signal }, 'the demo live simulator stopped; restart the server to start it again');
  });
  return {
    stop: async () => {
      stopping = true;
      await stopChild(child, exited);
    },
  };
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
  await exited;
  clearTimeout(timer);
}

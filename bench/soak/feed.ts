// The demo feed beside the soak: the live simulator in a process of its own, which follows the service through its
// restarts and is silenced on demand, and the demo producer as administrators see it.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { BIN, runCli } from '../../test/helpers/process.ts';
import { admin, expect } from './access.ts';
import { discrepancies, figures } from './run-state.ts';
import { service } from './service.ts';

/**
 * The demo feed: its producer is silent (down) after this long, and its simulator ticks this often. 16 ticks: a
 * simulator starved of a core for a few seconds on a loaded machine (the soak, the service, PostgreSQL and the wallet
 * share it) is not an outage; at 3 s such stalls held the fed markets and refused a quarter of the bets.
 */
export const FEED_SILENCE_SECONDS = 8;
const FEED_TICK_MS = 500;

/**
 * The demo's live simulator, `bookmaker demo live`, pushing to the service with the demo producer's key from a
 * process of its own. It follows the service through its restarts (a new port each time: started again) and is
 * silenced on demand: SIGKILL, and started again once the silence rule has held its markets.
 */
export class FeedSimulator {
  readonly #key: string;
  #child: ChildProcess | undefined;
  #url = '';
  #running = true;
  #loop: Promise<void> | undefined;

  constructor(key: string) {
    this.#key = key;
  }

  /** Starts it, and starts it again whenever the service comes back on another address. */
  start(): void {
    this.#loop = (async () => {
      while (this.#running) {
        const { url } = await service.ready();
        if (url !== this.#url || !this.#child) {
          await this.#stop();
          this.#spawn(url);
        }
        await sleep(200);
      }
    })();
  }

  #spawn(url: string): void {
    this.#url = url;
    const args = [BIN, 'demo', 'live', '--url', url, '--interval', String(FEED_TICK_MS)];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, BOOKMAKER_FEED_KEY: this.#key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const tick = JSON.parse(line) as { messages: number; outcomes: Record<string, number> };
      figures.feed.ticks += 1;
      figures.feed.messages += tick.messages;
      figures.feed.applied += tick.outcomes.applied ?? 0;
      figures.feed.kept += tick.outcomes.kept ?? 0;
      figures.feed.refused += tick.outcomes.refused ?? 0;
    });
    // a tick that found the service down (a restart) says so and tries again: counted, not a discrepancy
    createInterface({ input: child.stderr }).on('line', (line) => {
      if (/tick \d+ failed/.test(line)) figures.feed.failedTicks += 1;
    });
    this.#child = child;
  }

  async #stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /**
   * An outage: the simulator killed, the producer silent past FEED_SILENCE_SECONDS so every open market of its is
   * held, then the simulator started again, whose snapshot must reopen them: a discrepancy if either does not happen.
   */
  async outage(): Promise<void> {
    figures.feed.outages += 1;
    this.#running = false;
    await this.#loop;
    await this.#stop();
    const held = await until(FEED_SILENCE_SECONDS * 1000 + 10_000, async () => {
      const demo = await demoProducer();
      return demo?.state === 'down' ? demo : undefined;
    });
    if (!held) discrepancies.push({ check: 'feed_not_held', detail: 'the silent producer was never down' });
    this.#running = true;
    this.start();
    const recovered = await until(30_000, async () => {
      const demo = await demoProducer();
      return demo?.state === 'up' && demo.markets.held === 0 ? demo : undefined;
    });
    if (recovered) figures.feed.recovered += 1;
    else discrepancies.push({ check: 'feed_not_recovered', detail: 'its markets were still held 30 s after' });
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
    await this.#stop();
  }
}

/** The demo producer as platform administrators see it (its state, its held markets). */
async function demoProducer(): Promise<{ state: string; markets: { held: number } } | undefined> {
  const answer = await admin('GET', '/api/v1/admin/feed/producers');
  if (answer.status !== 200) return undefined;
  return (answer.body.producers as Array<{ id: string; state: string; markets: { held: number } }>).find(
    (producer) => producer.id === 'demo',
  );
}

/** Asks until `probe` answers something, for at most `ms`; undefined if it never did. */
async function until<T>(ms: number, probe: () => Promise<T | undefined>): Promise<T | undefined> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const found = await probe();
    if (found !== undefined) return found;
    await sleep(250);
  }
  return undefined;
}

/** The demo catalog (`bookmaker demo seed`), priced by the demo's producer; its simulator gets a key of its own. */
export async function seedDemoFeed(env: Record<string, string>): Promise<FeedSimulator> {
  const seeded = await runCli(env, ['demo', 'seed']);
  if (seeded.code !== 0) throw new Error(`demo seed: ${seeded.stderr}`);
  return new FeedSimulator(expect(await admin('POST', '/api/v1/admin/feed/producers/demo/key'), 200, 'feed key').key);
}

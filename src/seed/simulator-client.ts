/**
 * The live simulator as a feed client, in a process of its own (`bookmaker demo live`): each tick it reads back what
 * the service holds of the events it prices, works out this moment's messages (live-simulator.ts) and pushes them with
 * its producer key, as any provider's adapter does (docs/feed.md). It answers the service's snapshot requests (a gap,
 * a refused message, a recovery after it fell silent) on the next tick, and a heartbeat goes with every batch.
 */
import type { FeedMessage, FeedReceipt, PricedEvent } from '../feed/schemas.ts';
import { simulateLiveTick } from './live-simulator.ts';

/** The feed's limit of messages in a batch. */
const BATCH = 500;

export interface SimulatorClientOptions {
  /** The service's base URL (`http://127.0.0.1:3000`). */
  url: string;
  /** The producer's feed key (`bm_feed_…`). */
  key: string;
  random: () => number;
  /** Waits between ticks; resolves false when the simulator should stop. */
  pause: () => Promise<boolean>;
  /** How many ticks at most (default: until `pause` says stop). */
  ticks?: number;
  /** Each tick's figures (or why it failed: the simulator carries on at the next tick, as a feed would). */
  report: (tick: TickReport) => void;
}

export type TickReport =
  | { tick: number; messages: number; outcomes: Partial<Record<FeedReceipt['results'][number]['outcome'], number>> }
  | { tick: number; error: string };

/** The feed client's loop, until `ticks` are done or `pause` says stop. */
export async function runSimulatorClient(options: SimulatorClientOptions): Promise<void> {
  let whole: Set<string> | 'all' = new Set();
  for (let tick = 1; tick <= (options.ticks ?? Number.POSITIVE_INFINITY); tick++) {
    try {
      const { producer, now, events } = (await call(options, 'GET', '/api/v1/feed/events')) as {
        producer: string;
        now: string;
        events: PricedEvent[];
      };
      const messages = simulateLiveTick(producer, events, Date.parse(now), options.random, whole);
      if (whole === 'all') messages.push({ type: 'snapshot_complete', producer });
      messages.push({ type: 'alive', producer });
      const receipts = await push(options, messages);
      whole = asked(receipts);
      options.report({ tick, messages: messages.length, outcomes: countOutcomes(receipts) });
    } catch (error) {
      options.report({ tick, error: (error as Error).message });
    }
    if (tick < (options.ticks ?? Number.POSITIVE_INFINITY) && !(await options.pause())) return;
  }
}

/** The messages in batches of at most 500, one after the other, so each event's sequences arrive in order. */
async function push(options: SimulatorClientOptions, messages: FeedMessage[]): Promise<FeedReceipt[]> {
  const receipts: FeedReceipt[] = [];
  for (let start = 0; start < messages.length; start += BATCH) {
    const batch = { messages: messages.slice(start, start + BATCH) };
    receipts.push((await call(options, 'POST', '/api/v1/feed/messages', batch)) as FeedReceipt);
  }
  return receipts;
}

/** What the service asked to be sent whole on the next tick: everything while recovering, else the events named. */
function asked(receipts: FeedReceipt[]): Set<string> | 'all' {
  if (receipts.some((receipt) => receipt.snapshot.all)) return 'all';
  return new Set(receipts.flatMap((receipt) => receipt.snapshot.eventIds));
}

function countOutcomes(receipts: FeedReceipt[]) {
  const counts: Partial<Record<FeedReceipt['results'][number]['outcome'], number>> = {};
  for (const { outcome } of receipts.flatMap((receipt) => receipt.results))
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

async function call(options: SimulatorClientOptions, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(new URL(path, options.url), {
    method,
    headers: {
      authorization: `Bearer ${options.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

// npm run bench (fourth part): the odds feed (issue 36). The API in this process, on PostgreSQL; a producer pushes
// batches of odds messages to POST /api/v1/feed/messages as fast as it is answered, from BENCH_FEED_PRODUCERS (2)
// concurrent pushers (each its own events, so their sequences never cross), while one player's stream follows the
// events: odds changes applied a second, the API's and PostgreSQL's CPU a message, and from a batch's sending to
// each of its messages on the stream (the price a player can take), p50 and p99. Beside pgbench TPC-B on the same server in
// the same run, as bench/load.ts: ratios travel, milliseconds do not.
import { setTimeout as sleep } from 'node:timers/promises';
import { logDestination } from '../src/platform/http/logging.ts';
import { loginAsStaff, startTestApp } from '../test/helpers/app.ts';
import { openStream } from '../test/helpers/stream.ts';
import { baselineUrl, cpuUsedByGroup, inProcessService, pgbench, processCpu } from './support.ts';

const PUSHERS = Number(process.env.BENCH_FEED_PRODUCERS ?? 2);
const EVENTS_A_PUSHER = Number(process.env.BENCH_FEED_EVENTS ?? 5);
const MARKETS = 10;
const BATCH = Number(process.env.BENCH_FEED_BATCH ?? 100);
const ACTIVE_MS = Number(process.env.BENCH_FEED_SECONDS ?? 10) * 1000;
/** The goals of issue 36. */
const GOALS = { perSecond: 5_000, p99Ms: 100 };

if (!process.env.DATABASE_URL) {
  console.log('feed: skipped: measured on PostgreSQL (the stream hears it through LISTEN/NOTIFY); set DATABASE_URL');
  process.exit(0);
}

const baseline = await pgbench(baselineUrl()!);
const t = await startTestApp(
  { LOG_LEVEL: 'info', METRICS_PORT: 'off', FEED_SILENCE_SECONDS: '3600' },
  { logStream: logDestination('/dev/null') },
);
const { ticking, owners } = inProcessService(t);

const admin = await loginAsStaff(t, 'platform_admin');
const events = (pusher: number) => Array.from({ length: EVENTS_A_PUSHER }, (_, i) => `bench:${pusher}:${i}`);
const keys: string[] = [];
const sequence = new Map<string, number>();
const next = (eventId: string) => {
  const value = (sequence.get(eventId) ?? 0) + 1;
  sequence.set(eventId, value);
  return value;
};
async function push(key: string, messages: object[]): Promise<void> {
  const response = await t.request('POST', '/api/v1/feed/messages', {
    headers: { authorization: `Bearer ${key}` },
    body: { messages },
  });
  if (response.status !== 200) throw new Error(`feed push: ${response.status} ${response.text}`);
  const refused = response.body.results.filter((result: { outcome: string }) => result.outcome === 'refused');
  if (refused.length > 0) throw new Error(`feed push: refused ${JSON.stringify(refused[0])}`);
}

process.stdout.write(
  `feed: ${PUSHERS} producers, ${EVENTS_A_PUSHER} live events each, ${MARKETS} markets an event ...\n`,
);
for (let pusher = 0; pusher < PUSHERS; pusher++) {
  const producer = `bench-${pusher}`;
  const registered = await t.request('POST', '/api/v1/admin/feed/producers', {
    token: admin.token,
    body: { id: producer, name: `Bench ${pusher}` },
  });
  keys.push(registered.body.key);
  for (const eventId of events(pusher)) {
    const messages: object[] = [
      {
        type: 'fixture',
        producer,
        eventId,
        sequence: next(eventId),
        sport: { id: 'soccer', name: 'Soccer' },
        competition: { id: 'bench-league', name: 'Bench League', country: 'Brazil' },
        home: `${eventId} home`,
        away: `${eventId} away`,
        startsAt: new Date(Date.now() - 60_000).toISOString(),
      },
      { type: 'event_state', producer, eventId, sequence: next(eventId), status: 'live' },
    ];
    for (let market = 0; market < MARKETS; market++) {
      messages.push({
        type: 'market',
        producer,
        eventId,
        sequence: next(eventId),
        marketId: `${eventId}:m${market}`,
        marketType: 'totals',
        line: `${market}.5`,
        selections: [
          { name: 'Over', outcome: 'over', odds: '1.90' },
          { name: 'Under', outcome: 'under', odds: '1.90' },
        ],
      });
    }
    await push(keys[pusher]!, messages);
  }
}

// One player follows every event; each odds message's arrival is noted against when its batch was sent.
const watched = Array.from({ length: PUSHERS }, (_, pusher) => events(pusher)).flat();
const stream = await openStream(t.url, { topics: watched.map((eventId) => `event:${eventId}`) });
const sentAt = new Map<string, number>();
const latencies: number[] = [];
let arrived = 0;
const listening = (async () => {
  for (;;) {
    const message = await stream.next(undefined, 60_000).catch(() => undefined);
    if (!message) return;
    if (message.event !== 'odds') continue;
    arrived += 1;
    const key = `${message.data.selectionId}@${message.data.odds}`;
    const sent = sentAt.get(key);
    if (sent !== undefined) latencies.push(performance.now() - sent);
  }
})();
await sleep(500);

let applied = 0;
let price = 0;
const before = processCpu();
const started = performance.now();
await Promise.all(
  keys.map(async (key, pusher) => {
    const producer = `bench-${pusher}`;
    const mine = events(pusher);
    while (performance.now() - started < ACTIVE_MS) {
      const batch: object[] = [];
      const sent: string[] = [];
      for (let i = 0; i < BATCH; i++) {
        const eventId = mine[i % mine.length]!;
        // a batch of 100 prices 100 different selections (5 events x 10 markets x 2 outcomes): none supersedes another
        const market = `${eventId}:m${Math.floor(i / mine.length) % MARKETS}`;
        const outcome = Math.floor(i / (mine.length * MARKETS)) % 2 === 0 ? 'over' : 'under';
        // each price new, so every message is a change the stream sends
        price = (price + 1) % 900;
        const odds = (1.05 + price / 100).toFixed(2);
        batch.push({
          type: 'odds',
          producer,
          eventId,
          sequence: next(eventId),
          marketId: market,
          prices: [{ outcome, odds }],
        });
        sent.push(`${market}_${outcome === 'over' ? 0 : 1}@${odds}`);
      }
      const now = performance.now();
      for (const selection of sent) sentAt.set(selection, now);
      await push(key, batch);
      applied += BATCH;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
const used = cpuUsedByGroup(before, processCpu(), owners);
await sleep(1_000);
stream.close();
await listening;
clearInterval(ticking);
await t.close();

const rate = applied / seconds;
const api = (used.get('API') ?? 0) / applied;
const postgres = (used.get('PostgreSQL, service') ?? 0) / applied;
latencies.sort((a, b) => a - b);
const percentile = (fraction: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))] ?? NaN;
const tpcb = (ms: number) => (baseline?.postgresCpuMs ? ` (${(ms / baseline.postgresCpuMs).toFixed(2)} TPC-B)` : '');
console.log(`
feed, database: PostgreSQL, ${PUSHERS} producers pushing batches of ${BATCH} odds messages for ${seconds.toFixed(1)} s
pgbench TPC-B, 8 clients, scale 10 (baseline): ${baseline ? `${Math.round(baseline.tps)}/s, PostgreSQL's CPU ${baseline.postgresCpuMs?.toFixed(3)} ms a transaction` : 'not measured'}

| odds changes applied | x TPC-B rate | API CPU a message | PostgreSQL CPU a message | on the stream | p50 ms | p99 ms | samples |
|---|---|---|---|---|---|---|---|
| ${Math.round(rate)}/s | ${baseline ? (rate / baseline.tps).toFixed(2) : '-'} | ${api.toFixed(3)} ms${tpcb(api)} | ${postgres.toFixed(3)} ms${tpcb(postgres)} | ${arrived} | ${percentile(0.5).toFixed(1)} | ${percentile(0.99).toFixed(1)} | ${latencies.length} |

goals: ${GOALS.perSecond} odds changes a second applied (${rate >= GOALS.perSecond ? 'met' : 'not met'}); p99 from a message to the stream under ${GOALS.p99Ms} ms (${percentile(0.99) < GOALS.p99Ms ? 'met' : 'not met'})
`);

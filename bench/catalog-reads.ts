// node bench/catalog-reads.ts (not part of npm run bench): what a polling screen's read of the catalog costs, as sent
// and by process, measured as bench/load.ts measures (a load client in a process of its own, 16 clients, CPU from
// /proc): an event page and the live list of the demo catalog, read as a browser reads them (Accept-Encoding: gzip,
// deflate, br; the event page also plain and gzip), in full (every read a 200) and revalidated (the ETag sent back,
// every read a 304: nothing changes meanwhile). Each workload runs BENCH_ROUNDS (5) times for BENCH_SECONDS (2),
// the workloads taking turns, and the least CPU per read of its rounds is reported: other work on the machine only
// ever adds to a round. With DATABASE_URL the service runs on PostgreSQL, its CPU counted apart; without it, on
// PGlite inside the API process.
import { request as httpRequest } from 'node:http';
import { sql } from 'kysely';
import { logDestination } from '../src/platform/http/logging.ts';
import { seedDemoCatalog } from '../src/seed/demo-catalog.ts';
import { startTestApp } from '../test/helpers/app.ts';
import { cpuUsedByGroup, databaseName, processCpu, runClient, type LoadJob } from './support.ts';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 2) * 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CLIENTS = 16;
const BROWSER = 'gzip, deflate, br';

type Workload = LoadJob extends infer J ? (J extends LoadJob ? Omit<J, 'url' | 'until'> : never) : never;

/** CPU per read (ms) of one round, by process. */
interface Round {
  perSecond: number;
  api: number;
  database: number;
  client: number;
}

const t = await startTestApp({ LOG_LEVEL: 'info', METRICS_PORT: 'off' }, { logStream: logDestination('/dev/null') });
try {
  process.stdout.write(`catalog reads on ${databaseName()}: seeding the demo catalog ...\n`);
  await seedDemoCatalog(t.app.services, t.clock);
  await sql`analyze`.execute(t.db);
  const soccer = (await t.request('GET', '/api/v1/catalog/sports/soccer')).body;
  const eventIds: string[] = soccer.competitions.flatMap((competition: { events: Array<{ id: string }> }) =>
    competition.events.map((event) => event.id),
  );
  // The largest soccer event page: the page a player watching a match polls.
  const sizes = new Map<string, number>();
  for (const id of eventIds) sizes.set(id, (await sent(`/api/v1/catalog/events/${id}`, 'identity')).bytes);
  const event = `/api/v1/catalog/events/${[...sizes].sort((a, b) => b[1] - a[1])[0]![0]}`;
  const live = '/api/v1/catalog/live';

  console.log(`\nbytes of each answer as sent (the event page: ${event})`);
  console.log('| read | plain | gzip | br | sent back its ETag |');
  console.log('|---|---|---|---|---|');
  for (const [name, path] of [
    ['an event page', event],
    ['the live list', live],
  ] as const) {
    const plain = await sent(path, 'identity');
    const forms = [plain.bytes, (await sent(path, 'gzip')).bytes, (await sent(path, 'br')).bytes];
    const revalidated = plain.etag ? await sent(path, BROWSER, plain.etag) : undefined;
    const again = revalidated ? `${revalidated.status}, ${revalidated.bytes} bytes` : 'no ETag';
    console.log(`| ${name} | ${forms.map((n) => n.toLocaleString('en')).join(' | ')} | ${again} |`);
  }

  const read = (path: string, acceptEncoding: string, revalidate: boolean): Workload => ({
    kind: 'read',
    clients: CLIENTS,
    paths: [path],
    acceptEncoding,
    revalidate,
  });
  const workloads: Array<[string, Workload]> = [
    ['an event page | identity | full', read(event, 'identity', false)],
    ['an event page | gzip | full', read(event, 'gzip', false)],
    [`an event page | ${BROWSER} | full`, read(event, BROWSER, false)],
    [`an event page | ${BROWSER} | revalidated`, read(event, BROWSER, true)],
    [`the live list | ${BROWSER} | full`, read(live, BROWSER, false)],
    [`the live list | ${BROWSER} | revalidated`, read(live, BROWSER, true)],
    ['GET /healthz (the HTTP floor) | | full', { kind: 'alive', clients: 8 }],
  ];
  const rounds = new Map<string, Round[]>();
  for (const [, job] of workloads) await runClient({ ...job, url: t.url, until: { ms: 1_000 } });
  for (let round = 0; round < ROUNDS; round++) {
    process.stdout.write(`catalog reads: round ${round + 1} of ${ROUNDS} ...\n`);
    for (const [name, job] of workloads) {
      const before = processCpu();
      const result = await runClient({ ...job, url: t.url, until: { ms: DURATION_MS } });
      const used = cpuUsedByGroup(before, processCpu(), {
        apiPid: process.pid,
        walletPid: -1,
        serviceDatabaseUrl: t.database.databaseUrl,
        walletDatabaseUrl: undefined,
      });
      const per = (ms: number | undefined) => (ms ?? 0) / result.operations;
      const measured = {
        perSecond: result.perSecond,
        api: per(used.get('API')),
        database: per(used.get('PostgreSQL, service')),
        client: result.clientCpuMs / result.operations,
      };
      rounds.set(name, [...(rounds.get(name) ?? []), measured]);
    }
  }

  console.log(`\nCPU per read (ms), ${CLIENTS} clients, the least of ${ROUNDS} rounds of ${DURATION_MS / 1000} s each`);
  console.log('| read | Accept-Encoding | answers | reads/s | API | PostgreSQL | service | load client |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [name, measured] of rounds) {
    const least = (of: (round: Round) => number) => Math.min(...measured.map(of));
    const [api, database] = [least((r) => r.api), least((r) => r.database)];
    const service = least((r) => r.api + r.database);
    const figures = [api, database, service, least((r) => r.client)].map((ms) => ms.toFixed(3));
    const rate = Math.round(Math.max(...measured.map((r) => r.perSecond)));
    console.log(`| ${name} | ${rate} | ${figures.join(' | ')} |`);
  }
} finally {
  await t.close();
}

/** One read's answer as it came over the connection: its bytes, status and ETag. */
function sent(path: string, acceptEncoding: string, ifNoneMatch?: string) {
  return new Promise<{ bytes: number; status: number; etag: string | undefined }>((resolve, reject) => {
    const headers = { 'accept-encoding': acceptEncoding, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) };
    const request = httpRequest(`${t.url}${path}`, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ bytes, status: response.statusCode!, etag: response.headers.etag }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

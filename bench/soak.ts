// npm run soak -- [--seed N] [--bets N] [--restarts N] [--minutes M] [--json] [--keep]
//
// The fault soak: the reference wallet and `bookmaker serve` each in a process of their own, on loopback; a tenant,
// players and markets; thousands of bets (singles and accumulators), cash-outs, settlements and resettlements (each
// sent at the same moment as an operator's and the casino's decisions on the held and owed movements of its bets),
// while the wallet answers with every fault mode at random and the service is killed with SIGKILL and started again.
// Beside it the demo's live simulator (`bookmaker demo live`) prices the demo catalog as a feed producer from a process
// of its own, falls silent now and then (its markets held by the silence rule, then reopened by its snapshot), and
// players bet on its markets too.
// Once the queue has drained it checks that the ledger, the wallet's journal and balances and the signed daily
// statements agree to the unit (bench/soak-check.ts), prints the figures, and exits 0 only when nothing differs.
// docs/soak.md says how to read it and how to replay a seed.
import { spawn, type ChildProcess } from 'node:child_process';
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { parseMilli } from '../src/catalog/odds.ts';
import type { SelectionResult } from '../src/catalog/tables.ts';
import { loadConfig } from '../src/platform/config.ts';
import { startServer } from '../src/server.ts';
import { totpCode } from '../src/staff/totp.ts';
import { isObsolete } from '../src/wallet/states.ts';
import { createPostgresDatabase, dropPostgresDatabase } from '../test/helpers/database.ts';
import { BIN, runCli } from '../test/helpers/process.ts';
import {
  findDiscrepancies,
  movementsByKind,
  statesOf,
  type Discrepancy,
  type LedgerRow,
  type SoakBet,
  type StatementEvidence,
  type WalletRow,
} from './soak-check.ts';
import {
  http,
  Random,
  startServiceProcess,
  startWalletProcess,
  type HttpAnswer,
  type ServiceProcess,
  type WalletProcess,
} from './soak-support.ts';

const USAGE = `usage: npm run soak -- [--seed N] [--bets N] [--restarts N] [--minutes M] [--json] [--keep]

  --seed N       the seed of every random choice (default: a random one, printed); the same seed replays the run
  --bets N       how many bet slips to place (default 3000): singles and accumulators
  --restarts N   how many times the service is killed with SIGKILL and started again (default 5)
  --minutes M    the bound on the whole run (default 15): placing stops at 60% of it, the drain at 100%
  --json         print the figures as one JSON object on stdout
  --keep         keep the data directory (and PostgreSQL databases) for inspection

Runs on embedded PGlite in a fresh temporary DATA_DIR, or on PostgreSQL in fresh databases beside DATABASE_URL's.
Exit code: 0 when nothing differs, 1 when a discrepancy was found, 2 for a usage error or a soak that could not run.`;

const MODES = [
  'status_500',
  'status_503',
  'status_408',
  'status_429',
  'malformed',
  'empty_4xx',
  'wrong_tx_id',
  'wrong_currency',
  'delay',
  'reset',
] as const;
type Mode = (typeof MODES)[number];

const PLAYERS = 20;
const OPENING = 100_000_000; // 1,000,000.00 each: no correction debit can lack funds
const CURRENCY = 'BRL';
const MARKETS_PER_ROUND = 4;
const BETS_PER_ROUND = 600;
const PLACERS = 6;
/** Faults waiting in the wallet at once, at most (a few more can queue while the service is down). */
const FAULTS_WAITING = 6;
/**
 * The demo feed: its producer is silent (down) after this long, and its simulator ticks this often. 16 ticks: a
 * simulator starved of a core for a few seconds on a loaded machine (the soak, the service, PostgreSQL and the wallet
 * share it) is not an outage; at 3 s such stalls held the fed markets and refused a quarter of the bets.
 */
const FEED_SILENCE_SECONDS = 8;
const FEED_TICK_MS = 500;
/**
 * How long a player keeps sending a slip on a fed market the feed moved or held, and how long between tries: long
 * enough to outlast a restart on a loaded machine (service, then simulator, then a tick), which refused a sixth of
 * the bets of a CI run when a refusal was final.
 */
const FED_PATIENCE_MS = 20_000;
const FED_RETRY_MS = 1_000;
/** Outages of the demo feed, one after each of the first rounds' bets. */
const FEED_OUTAGES = 2;
/** Scheduled football matches of the demo catalog: one's match result market is bet on in each round. */
const FED_EVENTS = ['premier-league', 'la-liga', 'br-serie-a'].flatMap((league) =>
  [2, 3, 4, 5].map((round) => `ev-${league}-${round}`),
);
const PASSWORD = 'the soak administrator password';
const OPERATOR_PASSWORD = 'the soak operator password';
/** At each resettlement, the most held movements the operator decides, and the most the casino asks again for. */
const OPERATOR_AT_ONCE = 12;
const CASINO_AT_ONCE = 8;
/** What the operator (retry, resolve, cancel) and the casino (redeliver) may send during a resettlement. */
const DECISIONS = ['retry', 'resolve', 'cancel', 'redeliver'] as const;
type Decision = (typeof DECISIONS)[number];
/** Where a fault lands (undefined: the next call, whatever its endpoint); rollbacks are rare, so rarely aimed at. */
const ENDPOINTS = ['debit', 'debit', 'credit', 'credit', 'credit', 'rollback', undefined, undefined] as const;

interface Options {
  seed: number;
  bets: number;
  restarts: number;
  minutes: number;
  json: boolean;
  keep: boolean;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      bets: { type: 'string' },
      restarts: { type: 'string' },
      minutes: { type: 'string' },
      json: { type: 'boolean' },
      keep: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const integer = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) throw new Error(`--${name} must be an integer ${min}-${max}`);
    return value;
  };
  const minutes = values.minutes === undefined ? 15 : Number(values.minutes);
  if (!(minutes > 0 && minutes <= 24 * 60)) throw new Error('--minutes must be a number of minutes above 0');
  return {
    seed: integer('seed', values.seed, randomBytes(4).readUInt32BE() >>> 1, 0, 2 ** 31 - 1),
    bets: integer('bets', values.bets, 3000, 1, 1_000_000),
    restarts: integer('restarts', values.restarts, 5, 0, 1000),
    minutes,
    json: values.json === true,
    keep: values.keep === true,
  };
}

let opts: Options;
try {
  opts = options();
} catch (error) {
  process.stderr.write(`soak: ${(error as Error).message}\n\n${USAGE}\n`);
  process.exit(2);
}

// ---- what the run counts ----

const figures = {
  seed: opts.seed,
  database: process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite',
  wallMs: 0,
  bets: {
    requested: opts.bets,
    sent: 0,
    accepted: 0,
    singles: 0,
    accumulators: 0,
    refused: {} as Record<string, number>,
    /** Slips on a fed market refused for its price or its producer's silence, and sent again: by code. */
    sentAgain: {} as Record<string, number>,
  },
  cashOuts: { full: 0, partial: 0, unavailable: 0 },
  markets: { settled: 0, resettled: 0 },
  movements: {} as Record<string, { movements: number; amount: number }>,
  obligations: {} as Record<string, number>,
  faults: {
    injected: 0,
    appliedBeforeAnswer: 0,
    notHit: 0,
    byMode: Object.fromEntries(MODES.map((mode) => [mode, 0])) as Record<Mode, number>,
  },
  restarts: 0,
  unexpectedExits: 0,
  feed: { ticks: 0, messages: 0, applied: 0, kept: 0, refused: 0, failedTicks: 0, outages: 0, recovered: 0 },
  operator: { resolved: 0, cancelled: 0, retried: 0 },
  redeliveries: 0,
  duringResettlements: {
    /** Resettlements with decisions sent at the same moment, of all resettlements sent. */
    resettlements: 0,
    sent: 0,
    done: 0,
    refused: {} as Record<string, number>,
    /** Answers neither success nor a refusal the race explains: each is a discrepancy. */
    unexpected: 0,
    byAction: Object.fromEntries(DECISIONS.map((action) => [action, { sent: 0, done: 0, refused: {} }])) as Record<
      Decision,
      { sent: number; done: number; refused: Record<string, number> }
    >,
  },
  wallet: { requests: 0, resent: 0 },
  statements: { days: [] as string[], movements: 0 },
  reconcile: 'not run',
  discrepancies: 0,
  discrepancyList: [] as Discrepancy[],
};
const discrepancies: Discrepancy[] = [];
let phase = 'setting up';
const started = performance.now();
const deadline = started + opts.minutes * 60_000;
const activeUntil = started + opts.minutes * 60_000 * 0.6;
/** Past this, a call that keeps failing gives up: the run is stuck. */
const hardStop = deadline + 120_000;

const random = new Random(opts.seed);
// Forked in this order, so that a new stream leaves the earlier ones (and older seeds' scenarios) as they were.
const choices = {
  slips: random.fork(),
  faults: random.fork(),
  kills: random.fork(),
  results: random.fork(),
  decisions: random.fork(),
};
const say = (line: string) => process.stderr.write(`soak: ${line}\n`);

// ---- the processes ----

/** `bookmaker serve`, killed and started again on demand; every caller waits while it is down. */
class Service {
  readonly #env: Record<string, string>;
  #ready: Promise<ServiceProcess>;
  #expected = new WeakSet<object>();
  down = false;
  stopping = false;

  constructor(env: Record<string, string>) {
    this.#env = env;
    this.#ready = this.#watch(startServiceProcess(env));
  }

  ready(): Promise<ServiceProcess> {
    return this.#ready;
  }

  async #watch(starting: Promise<ServiceProcess>): Promise<ServiceProcess> {
    const running = await starting;
    void running.exited.then(() => {
      if (this.#expected.has(running.child) || this.stopping) return;
      figures.unexpectedExits += 1;
      discrepancies.push({ check: 'service_exited', detail: `bookmaker serve exited by itself:\n${running.output()}` });
      void this.#replace(running);
    });
    return running;
  }

  async #replace(old: ServiceProcess): Promise<void> {
    this.down = true;
    this.#expected.add(old.child);
    const next = (async () => {
      if (old.child.exitCode === null && old.child.signalCode === null) old.child.kill('SIGKILL');
      await old.exited;
      return startServiceProcess(this.#env);
    })();
    this.#ready = this.#watch(next);
    await this.#ready;
    this.down = false;
  }

  /** SIGKILL, then start again (on PGlite, once the dead process's lock has gone stale). */
  async kill(): Promise<void> {
    const old = await this.#ready;
    await this.#replace(old);
    figures.restarts += 1;
  }

  /** A graceful stop: SIGTERM drains the requests in flight and closes the database. */
  async stop(): Promise<void> {
    this.stopping = true;
    const process = await this.#ready.catch(() => undefined);
    if (!process || process.child.exitCode !== null) return;
    process.child.kill('SIGTERM');
    const timer = setTimeout(() => process.child.kill('SIGKILL'), 30_000);
    await process.exited;
    clearTimeout(timer);
  }
}

let service: Service;
let wallet: WalletProcess;

/** A call to the service that rides out its deaths: no answer, and it waits for the next process and asks again. */
async function call(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  for (;;) {
    const { url } = await service.ready();
    try {
      return await http(url, method, path, options);
    } catch (error) {
      if (performance.now() > hardStop) throw new Error(`${method} ${path}: no answer (${String(error)})`);
      await sleep(50);
    }
  }
}

/**
 * The demo's live simulator, `bookmaker demo live`, pushing to the service with the demo producer's key from a
 * process of its own. It follows the service through its restarts (a new port each time: started again) and is
 * silenced on demand: SIGKILL, and started again once the silence rule has held its markets.
 */
class FeedSimulator {
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

let feed: FeedSimulator | undefined;

// ---- the scenario ----

interface Market {
  id: string;
  /** A market of the demo feed's: its event, whose prices move while the soak runs (read again before a bet). */
  fedEvent?: string;
  selections: Array<{ id: string; odds: string; outcome: string }>;
  results?: Record<string, SelectionResult>;
  outcome?: string;
  hasBets: boolean;
}

interface Slip {
  index: number;
  player: number;
  stake: number;
  legs: Array<{ market: Market; selection: Market['selections'][number] }>;
  /** After it is accepted, cash out some earlier bet of the round: which (0-1), all of it or a part. */
  cashOut?: { pick: number; full: boolean; fraction: number };
}

interface Action {
  kind: 'settle' | 'resettle';
  market: Market;
  outcome: string;
}

interface Round {
  markets: Market[];
  slips: Slip[];
  actions: Action[];
  /** Resettlements made after the next round's settlements: its credits have long been delivered by then. */
  late: Action[];
  bets: Array<SoakBet & { busy: boolean }>;
}

const OUTCOMES = ['home', 'draw', 'away', 'void'];
const otherOutcome = (rng: Random, not: string | undefined) => rng.pick(OUTCOMES.filter((o) => o !== not));

let staffToken = '';
/** The tenant's operator (a second staff account): the decisions taken during resettlements are theirs. */
let operatorToken = '';
let tenantId = '';
let integrationKey = '';
const sessions: string[] = [];
const players = Array.from({ length: PLAYERS }, (_, i) => `soak-player-${i}`);
const accepted: SoakBet[] = [];
const progress = { actions: 0, drain: false };

const admin = (method: string, path: string, body?: unknown) =>
  call(method, path, { token: staffToken, ...(body === undefined ? {} : { body }) });
const operator = (method: string, path: string, body?: unknown) =>
  call(method, path, { token: operatorToken, ...(body === undefined ? {} : { body }) });
const casino = (method: string, path: string, body?: unknown) =>
  call(method, path, {
    headers: { 'x-tenant-id': tenantId, 'x-api-key': integrationKey },
    ...(body === undefined ? {} : { body }),
  });

function expect(answer: HttpAnswer, status: number, what: string): any {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer.body;
}

async function provision(): Promise<Round[]> {
  const created = await runCli(serviceEnv, [
    'staff',
    'create',
    '--email',
    'soak@bookmaker.test',
    '--password',
    PASSWORD,
    '--role',
    'platform_admin',
    '--enrol-now',
  ]);
  if (created.code !== 0) throw new Error(`staff create: ${created.stderr}`);
  const account = JSON.parse(created.stdout) as { totpSecret: string };
  service = new Service(serviceEnv);
  await service.ready();
  const login = await call('POST', '/api/v1/admin/auth/login', {
    body: { email: 'soak@bookmaker.test', password: PASSWORD, totp: totpCode(account.totpSecret, new Date()) },
  });
  staffToken = expect(login, 200, 'login').token;

  const tenant = expect(
    await admin('POST', '/api/v1/admin/tenants', {
      name: 'Soak Casino',
      currency: CURRENCY,
      locale: 'pt-BR',
      jurisdiction: 'BR',
      walletUrl: wallet.url,
    }),
    201,
    'tenant',
  );
  tenantId = tenant.tenant.id;
  integrationKey = tenant.integrationApiKey;
  await wallet.control('PUT', '/secret', { secret: tenant.walletSecret });
  operatorToken = await signInOperator();

  for (const player of players) {
    await wallet.control('PUT', `/players/${player}`, { balance: OPENING, currency: CURRENCY });
    const session = expect(
      await casino('POST', '/api/v1/integration/sessions', { externalPlayerId: player }),
      200,
      'session',
    );
    sessions.push(session.token);
  }

  // The demo catalog, priced by the demo's producer; its simulator gets a key of its own.
  const seeded = await runCli(serviceEnv, ['demo', 'seed']);
  if (seeded.code !== 0) throw new Error(`demo seed: ${seeded.stderr}`);
  feed = new FeedSimulator(expect(await admin('POST', '/api/v1/admin/feed/producers/demo/key'), 200, 'feed key').key);

  const trade = async (path: string, body: unknown) =>
    expect(await admin('POST', `/api/v1/admin/trading${path}`, body), 201, path);
  // the demo seed made the soccer sport
  const { competition } = await trade('/competitions', { sportId: 'soccer', name: 'Soak League', country: 'BR' });
  const roundCount = Math.max(1, Math.min(20, Math.ceil(opts.bets / BETS_PER_ROUND)));
  const rounds: Round[] = [];
  const rng = choices.slips;
  for (let r = 0; r < roundCount; r += 1) {
    const markets: Market[] = [];
    for (let m = 0; m < MARKETS_PER_ROUND; m += 1) {
      const { event } = await trade('/events', {
        competitionId: competition.id,
        home: `Home ${r}.${m}`,
        away: `Away ${r}.${m}`,
        startsAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
      const { market } = await trade(`/events/${event.id}/markets`, {
        type: 'match_result',
        selections: [
          { name: `Home ${r}.${m}`, outcome: 'home', odds: rng.pick(['1.85', '2.10', '2.45']) },
          { name: 'Draw', outcome: 'draw', odds: rng.pick(['3.10', '3.25', '3.40']) },
          { name: `Away ${r}.${m}`, outcome: 'away', odds: rng.pick(['2.90', '3.60', '4.20']) },
        ],
      });
      markets.push({ id: market.id, selections: market.selections, hasBets: false });
    }
    const fedEvent = FED_EVENTS[r];
    if (fedEvent) {
      const { event } = expect(await call('GET', `/api/v1/catalog/events/${fedEvent}`), 200, fedEvent);
      const result = event.markets.find((market: { type: string }) => market.type === 'match_result');
      markets.push({ id: result.id, fedEvent, selections: result.selections, hasBets: false });
    }
    const first = Math.floor((opts.bets * r) / roundCount);
    const count = Math.floor((opts.bets * (r + 1)) / roundCount) - first;
    const slips: Slip[] = Array.from({ length: count }, (_, k) => {
      const legCount = rng.chance(0.7) ? 1 : rng.int(2, 3);
      const legs = rng
        .shuffle(markets)
        .slice(0, legCount)
        .map((market) => ({ market, selection: rng.pick(market.selections) }));
      return {
        index: first + k,
        player: rng.int(0, PLAYERS - 1),
        stake: rng.int(1_00, 50_00),
        legs,
        ...(rng.chance(0.06)
          ? { cashOut: { pick: rng.next(), full: rng.chance(0.5), fraction: 0.2 + rng.next() * 0.5 } }
          : {}),
      };
    });
    // Settle the markets one by one; now and then correct one already settled at once, while its credits are on
    // their way (what supersedes them), and correct some again a round later.
    const actions: Action[] = [];
    const settled: Market[] = [];
    const results = choices.results;
    for (const market of results.shuffle(markets)) {
      const outcome = results.chance(0.1) ? 'void' : results.pick(['home', 'draw', 'away']);
      actions.push({ kind: 'settle', market, outcome });
      settled.push(market);
      if (results.chance(0.35)) {
        const corrected = results.pick(settled);
        actions.push({ kind: 'resettle', market: corrected, outcome: '' });
      }
    }
    if (!actions.some((action) => action.kind === 'resettle')) {
      actions.push({ kind: 'resettle', market: results.pick(markets), outcome: '' });
    }
    const late = results
      .shuffle(markets)
      .slice(0, results.int(1, 2))
      .map((market): Action => ({ kind: 'resettle', market, outcome: '' }));
    rounds.push({ markets, slips, actions, late, bets: [] });
  }
  return rounds;
}

/**
 * A second staff account, an operator bound to the tenant, as the casino's back office has. Made through the admin
 * API rather than `bookmaker staff create` (on PGlite the CLI cannot open the database the service holds), and
 * enrolled with its authenticator at its first sign-in.
 */
async function signInOperator(): Promise<string> {
  const email = 'soak-operator@bookmaker.test';
  const account = { email, password: OPERATOR_PASSWORD, role: 'operator', tenantId };
  expect(await admin('POST', '/api/v1/admin/staff', account), 201, 'operator account');
  const login = await call('POST', '/api/v1/admin/auth/login', { body: { email, password: OPERATOR_PASSWORD } });
  const { enrolmentToken, secret } = expect(login, 200, 'operator login').enrolment;
  const enrolment = { enrolmentToken, totp: totpCode(secret, new Date()) };
  return expect(await call('POST', '/api/v1/admin/auth/enrol', { body: enrolment }), 200, 'operator enrolment').token;
}

// `provision` needs the environment before the service exists.
let serviceEnv: Record<string, string>;

function recordBet(round: Round, slip: Slip, bet: any): void {
  figures.bets.accepted += 1;
  const record = {
    betId: bet.id as string,
    player: players[slip.player]!,
    stake: bet.stake as number,
    remainingStake: bet.remainingStake as number,
    fullyCashedOut: false,
    cashOutTxIds: [] as string[],
    legs: (bet.legs as Array<{ marketId: string; selectionId: string; odds: string }>).map((leg) => ({
      marketId: leg.marketId,
      selectionId: leg.selectionId,
      oddsMilli: parseMilli(leg.odds),
    })),
    busy: false,
  };
  round.bets.push(record);
  accepted.push(record);
}

async function place(round: Round, slip: Slip): Promise<void> {
  figures.bets.sent += 1;
  if (slip.legs.length === 1) figures.bets.singles += 1;
  else figures.bets.accumulators += 1;
  for (const leg of slip.legs) leg.market.hasBets = true;
  const fed = slip.legs.some((leg) => leg.market.fedEvent);
  const placeUntil = performance.now() + FED_PATIENCE_MS;
  let again = 0;
  let body = await slipBody(slip, again);
  for (;;) {
    const answer = await call('POST', '/api/v1/bets', { token: sessions[slip.player]!, body });
    if (answer.status === 201 || answer.status === 200) return recordBet(round, slip, answer.body.bet);
    const code: string = answer.body?.error?.code ?? `http_${answer.status}`;
    if (code === 'bet_in_progress') {
      await sleep(300);
      continue;
    }
    // a fed market moves while the soak bets: its price changed, or it was held for its producer's silence (after a
    // restart, until the simulator is back); the player reads the price again and sends the slip again, for a while
    const fedRefusal = fed && (code === 'odds_changed' || code === 'market_unavailable');
    if (fedRefusal && performance.now() < Math.min(placeUntil, activeUntil)) {
      figures.bets.sentAgain[code] = (figures.bets.sentAgain[code] ?? 0) + 1;
      await sleep(FED_RETRY_MS);
      body = await slipBody(slip, (again += 1));
      continue;
    }
    if (answer.status === 402 || answer.status === 503 || fedRefusal) {
      figures.bets.refused[code] = (figures.bets.refused[code] ?? 0) + 1;
      return;
    }
    discrepancies.push({
      check: 'unexpected_answer',
      detail: `placing ${body.requestId}: ${answer.status} ${answer.text}`,
    });
    return;
  }
}

/**
 * The slip's request, at the price players read now on its fed markets. A refusal is final for its request, so a slip
 * sent again after one is a new request (`again` > 0); one still in progress is the same request.
 */
async function slipBody(slip: Slip, again: number) {
  for (const leg of slip.legs)
    if (leg.market.fedEvent) leg.selection.odds = await fedOdds(leg.market, leg.selection.id);
  return {
    requestId: `soak-${opts.seed}-${slip.index}${again ? `-again-${again}` : ''}`,
    stake: slip.stake,
    legs: slip.legs.map((leg) => ({ selectionId: leg.selection.id, odds: leg.selection.odds })),
  };
}

/** A fed selection's price now, as players read it. */
async function fedOdds(market: Market, selectionId: string): Promise<string> {
  const { event } = expect(await call('GET', `/api/v1/catalog/events/${market.fedEvent}`), 200, 'fed event');
  const now = event.markets.find((one: { id: string }) => one.id === market.id);
  const selection = now?.selections.find((one: { id: string }) => one.id === selectionId);
  return selection?.odds ?? market.selections.find((one) => one.id === selectionId)!.odds;
}

async function cashOut(round: Round, plan: NonNullable<Slip['cashOut']>, index: number): Promise<void> {
  const open = round.bets.filter((bet) => !bet.fullyCashedOut && !bet.busy);
  if (open.length === 0) return;
  const bet = open[Math.floor(plan.pick * open.length)]!;
  const part = plan.full ? undefined : Math.floor(bet.remainingStake * plan.fraction);
  if (part !== undefined && (part < 1 || part >= bet.remainingStake)) return;
  bet.busy = true;
  try {
    const token = sessions[players.indexOf(bet.player)]!;
    const offer = await call('GET', `/api/v1/bets/${bet.betId}/cashout${part ? `?stake=${part}` : ''}`, { token });
    if (offer.status !== 200) {
      figures.cashOuts.unavailable += 1;
      return;
    }
    const body = {
      requestId: `soak-${opts.seed}-co-${index}`,
      amount: offer.body.offer.amount,
      ...(part ? { stake: part } : {}),
    };
    const answer = await call('POST', `/api/v1/bets/${bet.betId}/cashout`, { token, body });
    if (answer.status !== 200) {
      figures.cashOuts.unavailable += 1;
      return;
    }
    const after = answer.body.bet;
    bet.remainingStake = after.remainingStake;
    bet.fullyCashedOut = after.status === 'cashed_out';
    bet.cashOutTxIds = (after.movements as Array<{ txId: string; kind: string }>)
      .filter((movement) => movement.kind === 'cashout')
      .map((movement) => movement.txId);
    if (part) figures.cashOuts.partial += 1;
    else figures.cashOuts.full += 1;
  } finally {
    bet.busy = false;
  }
}

async function placeRound(round: Round): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: PLACERS }, async () => {
      while (next < round.slips.length && performance.now() < activeUntil) {
        const slip = round.slips[next++]!;
        await place(round, slip);
        if (slip.cashOut) await cashOut(round, slip.cashOut, slip.index);
      }
    }),
  );
}

const resultsOf = (market: Market, outcome: string): Record<string, SelectionResult> =>
  Object.fromEntries(
    market.selections.map((selection) => [
      selection.id,
      outcome === 'void' ? 'void' : selection.outcome === outcome ? 'won' : 'lost',
    ]),
  );

async function act(action: Action): Promise<void> {
  const { market } = action;
  if (!market.hasBets) return;
  if (action.kind === 'resettle') {
    if (!market.outcome) return;
    action.outcome = otherOutcome(choices.results, market.outcome);
  }
  progress.actions += 1;
  const results = resultsOf(market, action.outcome);
  const body = { results: Object.entries(results).map(([selectionId, result]) => ({ selectionId, result })) };
  // A resettlement is sent with the operator's and the casino's decisions on the market's bets, once.
  let amid = action.kind === 'resettle';
  for (;;) {
    const send = () => admin('POST', `/api/v1/admin/trading/markets/${market.id}/${action.kind}`, body);
    const answer = amid ? await resettleAmidDecisions(market, send) : await send();
    amid = false;
    const code = answer.body?.error?.code;
    if (answer.status === 200 || (action.kind === 'settle' && code === 'market_settled')) break;
    if (code === 'bets_pending') {
      await sleep(500);
      continue;
    }
    throw new Error(`${action.kind} ${market.id}: ${answer.status} ${answer.text}`);
  }
  market.outcome = action.outcome;
  market.results = results;
  if (action.kind === 'settle') figures.markets.settled += 1;
  else figures.markets.resettled += 1;
  await sleep(choices.results.int(0, 300));
}

// ---- faults ----

/** Faults are put in the wallet's queue one at a time; the wallet's log of the faults that hit says what was seen. */
class FaultInjector {
  #bag: Array<{ mode: Mode; apply: boolean }> = [];
  /** The modes of the faults queued in the wallet and not yet hit, as it last said. */
  #queued: Mode[] = [];
  /** How many of the wallet's hits are counted in the figures already. */
  #counted = 0;
  #sequence = 0;
  #lastPost = 0;
  #running = true;
  #loop: Promise<void> | undefined;

  #next(rng: Random) {
    // A mode never hit yet, and not waiting in the queue, comes first: every mode is seen, even in a short run.
    const unseen = MODES.find((mode) => figures.faults.byMode[mode] === 0 && !this.#queued.includes(mode));
    if (unseen) return { mode: unseen, apply: rng.chance(0.5), first: true };
    if (this.#bag.length === 0) {
      this.#bag = rng.shuffle(MODES.flatMap((mode) => [false, true].map((apply) => ({ mode, apply }))));
    }
    return { ...this.#bag.pop()!, first: false };
  }

  /** Reads the wallet's queue and its log of hits, and counts the hits not counted yet. */
  async #account(): Promise<void> {
    const { faults, hits } = (await wallet.control('GET', '/faults')) as {
      faults: Array<{ mode: Mode }>;
      hits: Array<{ mode: Mode; apply: boolean }>;
    };
    this.#queued = faults.map((fault) => fault.mode);
    for (const hit of hits.slice(this.#counted)) {
      figures.faults.injected += 1;
      figures.faults.byMode[hit.mode] += 1;
      if (hit.apply) figures.faults.appliedBeforeAnswer += 1;
    }
    this.#counted = hits.length;
  }

  start(): void {
    const rng = choices.faults;
    this.#loop = (async () => {
      while (this.#running) {
        await sleep(rng.int(30, 150));
        if (service.down) continue;
        await this.#account();
        if (this.#queued.length >= FAULTS_WAITING && performance.now() - this.#lastPost < 1_000) continue;
        const { mode, apply, first } = this.#next(rng);
        // A mode's first fault hits the very next call, whatever its endpoint.
        const endpoint = first ? undefined : rng.pick(ENDPOINTS);
        this.#sequence += 1;
        this.#lastPost = performance.now();
        await wallet.control('POST', '/faults', {
          mode,
          times: 1,
          apply,
          // A delay longer than the service's 5 s timeout.
          ...(mode === 'delay' ? { delayMs: 5_600 + (this.#sequence % 800) } : {}),
          ...(endpoint ? { endpoint } : {}),
        });
        this.#queued.push(mode);
      }
    })();
  }

  /** Stops injecting; counts what was hit and clears what was not. */
  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
    await this.#account();
    figures.faults.notHit = this.#queued.length;
    await wallet.control('DELETE', '/faults');
  }
}

// ---- kills ----

interface KillPlan {
  /** When it may fire: once so many bets were sent, or so many settlement actions, or the drain has begun. */
  after: { bets: number } | { actions: number };
  delayMs: number;
}

function killPlans(rounds: Round[]): KillPlan[] {
  const rng = choices.kills;
  const actions = rounds.reduce((sum, round) => sum + round.actions.length + round.late.length, 0);
  const kinds = ['action', 'bet', 'delivery'] as const;
  const offset = rng.int(0, kinds.length - 1);
  return Array.from({ length: opts.restarts }, (_, i): KillPlan => {
    const kind = kinds[(i + offset) % kinds.length]!;
    if (kind === 'bet')
      return { after: { bets: Math.floor(opts.bets * (0.1 + 0.8 * rng.next())) }, delayMs: rng.int(0, 150) };
    const at = { actions: rng.int(1, Math.max(1, actions)) };
    // During the settlement request itself, or while its credits are being delivered.
    return { after: at, delayMs: kind === 'action' ? rng.int(0, 60) : rng.int(300, 2_500) };
  });
}

/** Fires the kills, one at a time, each once its moment has come (or the drain has begun). */
function runKills(plans: KillPlan[]): Promise<void> {
  let chain = Promise.resolve();
  const due = (plan: KillPlan) =>
    progress.drain ||
    ('bets' in plan.after ? figures.bets.sent >= plan.after.bets : progress.actions >= plan.after.actions);
  return Promise.all(
    plans.map(async (plan) => {
      while (!due(plan)) await sleep(10);
      await sleep(plan.delayMs);
      const mine = chain.then(async () => {
        say(`SIGKILL (restart ${figures.restarts + 1}/${opts.restarts}) during ${phase}`);
        await service.kill();
      });
      chain = mine;
      await mine;
    }),
  ).then(() => undefined);
}

// ---- reading the ledger, and the operator's decisions ----

function obligations(state?: string): Promise<any[]> {
  const filter = `tenantId=${tenantId}${state ? `&state=${state}` : ''}`;
  return everyPage((query) => admin('GET', `/api/v1/admin/obligations?${filter}&${query}`), 'obligations');
}

async function queueDepth(): Promise<{ unsettled: number; held: number } | undefined> {
  const { url } = await service.ready();
  const answer = await http(url, 'GET', `/api/v1/admin/obligations/counts?tenantId=${tenantId}`, {
    token: staffToken,
    timeoutMs: 5_000,
  });
  if (answer.status !== 200) return undefined;
  const states = answer.body.states;
  return { unsettled: states.sending + states.pending + states.held, held: states.held };
}

const retries = new Map<string, number>();

/**
 * What an operator does with a held movement: asks the casino (the wallet's journal) whether a superseded one was
 * applied, and resolves or cancels it accordingly; sends a refused one again; cancels a correction the player could
 * not pay (and says so: it should never happen here).
 */
async function decideHeld(): Promise<void> {
  const held = (await obligations('held')).filter((row) => !row.inFlight);
  if (held.length === 0) return;
  // Nothing may be on its way to the wallet while its journal is read: a delayed request could still apply.
  if ((await wallet.control('GET', '/stats')).inFlight > 0) return;
  const journal = new Map<string, number>(
    (await wallet.control('GET', '/transactions')).transactions.map((tx: any) => [tx.tx_id, tx.status]),
  );
  if ((await wallet.control('GET', '/stats')).inFlight > 0) return;
  for (const row of held) {
    const decide = async (action: 'resolve' | 'cancel' | 'retry', reason?: string) => {
      const answer = await admin('POST', `/api/v1/admin/obligations/${row.id}/${action}`, reason ? { reason } : {});
      const code = answer.body?.error?.code;
      if (answer.status === 200) {
        figures.operator[action === 'retry' ? 'retried' : action === 'resolve' ? 'resolved' : 'cancelled'] += 1;
      } else if (code === 'sent_again_too_soon') {
        // Sent again moments ago (by a decision during a resettlement): not one of its tries; asked again later.
        retries.set(row.txId, (retries.get(row.txId) ?? 1) - 1);
      } else if (code !== 'obligation_not_held' && code !== 'obligation_in_flight') {
        discrepancies.push({ check: 'operator', detail: `${action} ${row.txId}: ${answer.status} ${answer.text}` });
      }
    };
    switch (row.holdReason) {
      case 'obsolete_credit_requires_review':
      case 'obsolete_debit_requires_review':
        if (!row.requestSent) await decide('cancel');
        else if (journal.get(row.txId) === 200) await decide('resolve', "the casino's journal shows it applied");
        else await decide('cancel', "the casino's journal has no applied movement of this txId");
        break;
      case 'refused': {
        const count = (retries.get(row.txId) ?? 0) + 1;
        retries.set(row.txId, count);
        if (count <= 3) await decide('retry', 'sent again by the soak operator');
        else {
          discrepancies.push({ check: 'refused', detail: `${row.txId} refused again and again (${row.operatorCode})` });
          await decide('cancel', 'refused again and again');
        }
        break;
      }
      case 'correction_insufficient_funds':
        discrepancies.push({
          check: 'insufficient_funds',
          detail: `${row.txId}: a correction the player could not pay`,
        });
        await decide('cancel', 'the player could not pay the correction');
        break;
      default:
      // destination_changed or refused_address: nothing the soak causes; left held, and reported as not drained.
    }
  }
}

/** Movements whose next attempt is far off (30 s after the fifth): the casino asks for them now. */
async function redeliverLate(): Promise<void> {
  for (const row of await obligations('pending')) {
    if (row.inFlight || !row.nextAttemptAt || Date.parse(row.nextAttemptAt) < Date.now() + 2_000) continue;
    const answer = await casino('POST', `/api/v1/integration/obligations/${row.id}/redeliver`, {});
    if (answer.status === 202) figures.redeliveries += 1;
  }
}

// ---- the operator and the casino, at the moment of a resettlement ----

/**
 * The answers a decision may get besides success when the resettlement (or the other side's decision, or the engine)
 * changed its movement first, with their HTTP status: the service refuses what no longer applies, it never decides
 * on what it did not read under the bet's lock (docs/ledger.md, the lock order).
 */
const RACE_REFUSALS: Record<Decision, Record<string, number>> = {
  retry: { obligation_not_held: 409, obligation_in_flight: 409, retry_not_allowed: 409, sent_again_too_soon: 429 },
  resolve: { obligation_not_held: 409, obligation_in_flight: 409 },
  cancel: { obligation_not_held: 409, obligation_in_flight: 409 },
  redeliver: { redelivery_not_allowed: 409, obligation_in_flight: 409, sent_again_too_soon: 429 },
};

interface Intent {
  decision: Decision;
  txId: string;
  send: () => Promise<HttpAnswer>;
}

/**
 * A resettlement sent at the same moment as what the operator and the casino decide, from their screens, on the held
 * and owed movements of the market's bets. They race on purpose: whichever takes the bet's lock first decides, and
 * the other must find the movement as that decision left it. Every answer is counted; one that is neither success
 * nor a refusal the race explains is a discrepancy.
 */
async function resettleAmidDecisions(market: Market, resettle: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
  const bets = new Set(
    accepted.filter((bet) => bet.legs.some((leg) => leg.marketId === market.id)).map((bet) => bet.betId),
  );
  const intents = [...(await operatorIntents(bets)), ...(await casinoIntents(bets))];
  if (intents.length > 0) figures.duringResettlements.resettlements += 1;
  const [answer] = await Promise.all([resettle(), ...intents.map((intent) => decideAmid(market, intent))]);
  return answer;
}

/** Every page of a list the service serves by cursor (`limit=100&cursor=…`). */
async function everyPage(read: (query: string) => Promise<HttpAnswer>, what: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor = '';
  do {
    const page = expect(await read(`limit=100${cursor ? `&cursor=${cursor}` : ''}`), 200, what);
    rows.push(...page.obligations);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

/**
 * What the operator decides on the bets' held movements, as in the drain: a superseded one resolved when the casino's
 * journal shows it applied and cancelled when it does not (never while an attempt is on its way, nor while a request
 * of it may still apply in the wallet), a refused one sent again (three times at most; the drain reports the rest).
 */
async function operatorIntents(bets: Set<string>): Promise<Intent[]> {
  const held = (
    await everyPage((query) => operator('GET', `/api/v1/admin/obligations?state=held&${query}`), 'held')
  ).filter((row) => bets.has(row.betId) && !row.inFlight);
  const chosen = choices.decisions.shuffle(held).slice(0, OPERATOR_AT_ONCE);
  const journal = chosen.some((row) => isObsolete(row.holdReason) && row.requestSent) ? await journalNow() : undefined;
  const intents: Intent[] = [];
  for (const row of chosen) {
    const decide = (decision: 'retry' | 'resolve' | 'cancel', reason?: string) =>
      intents.push({
        decision,
        txId: row.txId,
        send: () => operator('POST', `/api/v1/admin/obligations/${row.id}/${decision}`, reason ? { reason } : {}),
      });
    if (isObsolete(row.holdReason)) {
      if (!row.requestSent) decide('cancel');
      else if (journal!.applied.has(row.txId)) decide('resolve', "the casino's journal shows it applied");
      else if (!journal!.mayStillApply.has(row.txId))
        decide('cancel', "the casino's journal has no applied movement of this txId");
    } else if (row.holdReason === 'refused' && (retries.get(row.txId) ?? 0) < 3) {
      decide('retry', 'sent again by the soak operator during a resettlement');
    }
  }
  return intents;
}

/**
 * What the casino asks again for, from its own view (integration API): the bets' movements it may redeliver now,
 * failed ones first, then some still owed (most are due already: `already_due` changes nothing).
 */
async function casinoIntents(bets: Set<string>): Promise<Intent[]> {
  const listed = async (state: 'failed' | 'pending') =>
    (
      await everyPage((query) => casino('GET', `/api/v1/integration/obligations?state=${state}&${query}`), state)
    ).filter((row) => bets.has(row.betId) && row.redeliverable);
  const failed = await listed('failed');
  const pending = choices.decisions.shuffle(await listed('pending'));
  return [...failed, ...pending].slice(0, CASINO_AT_ONCE).map((row) => ({
    decision: 'redeliver',
    txId: row.txId,
    send: () => casino('POST', `/api/v1/integration/obligations/${row.id}/redeliver`, {}),
  }));
}

/**
 * What the casino's journal (the wallet's) says now: the txIds it applied, and those a request may still apply. A
 * `delay` fault that applies holds its request in the wallet for up to 6.4 s, past the service's 5 s timeout and past
 * a SIGKILL: once the engine has given up on the attempt, nothing in the ledger says it is still on its way, and a
 * cancel would be wrong if it then applied. The journal is read before the faults that hit, so that a request delayed
 * in between is seen.
 */
async function journalNow(): Promise<{ applied: Set<string>; mayStillApply: Set<string> }> {
  const journal: Array<{ tx_id: string; status: number | string }> = (await wallet.control('GET', '/transactions'))
    .transactions;
  const { hits } = (await wallet.control('GET', '/faults')) as {
    hits: Array<{ mode: Mode; apply: boolean; txId: string }>;
  };
  const answered = new Set(journal.map((tx) => tx.tx_id));
  return {
    applied: new Set(journal.filter((tx) => Number(tx.status) === 200).map((tx) => tx.tx_id)),
    mayStillApply: new Set(
      hits.filter((hit) => hit.mode === 'delay' && hit.apply && !answered.has(hit.txId)).map((hit) => hit.txId),
    ),
  };
}

/** Sends one decision and counts its answer. */
async function decideAmid(market: Market, intent: Intent): Promise<void> {
  const tally = figures.duringResettlements;
  const mine = tally.byAction[intent.decision];
  tally.sent += 1;
  mine.sent += 1;
  const answer = await intent.send();
  const code: string | undefined = answer.body?.error?.code;
  if (answer.status === (intent.decision === 'redeliver' ? 202 : 200)) {
    tally.done += 1;
    mine.done += 1;
    if (intent.decision === 'retry') retries.set(intent.txId, (retries.get(intent.txId) ?? 0) + 1);
  } else if (code !== undefined && RACE_REFUSALS[intent.decision][code] === answer.status) {
    // Per decision, with what the movement had become (details.reason or details.status): who changed it first.
    const details = answer.body.error.details ?? {};
    const why = details.reason ?? details.status;
    const key = typeof why === 'string' ? `${code}: ${why}` : code;
    tally.refused[code] = (tally.refused[code] ?? 0) + 1;
    mine.refused[key] = (mine.refused[key] ?? 0) + 1;
  } else {
    tally.unexpected += 1;
    discrepancies.push({
      check: 'decision_during_resettlement',
      detail: `${intent.decision} ${intent.txId} during the resettlement of ${market.id}: ${answer.status} ${answer.text.slice(0, 500)}`,
    });
  }
}

async function drain(): Promise<boolean> {
  for (let pass = 0; performance.now() < deadline; pass += 1) {
    const depth = await queueDepth().catch(() => undefined);
    const walletBusy = (await wallet.control('GET', '/stats')).inFlight > 0;
    if (depth && depth.unsettled === 0 && !walletBusy && !service.down && killsPending === 0) return true;
    if (depth && depth.held > 0) await decideHeld();
    if (depth && depth.unsettled > depth.held && pass % 4 === 3) await redeliverLate();
    await sleep(500);
  }
  return false;
}
let killsPending = 0;

// ---- the statements ----

function dayOf(iso: string | number): string {
  return new Date(iso).toISOString().slice(0, 10);
}

/**
 * The signed statements of every UTC day of the run. A day's statement is served only once that day is over, so
 * after the service has stopped they are read from the same database by the service started once more in this
 * process, its clock set to just after the run's last day: as the casino would download them the next morning.
 */
async function readStatements(
  env: Record<string, string>,
  days: string[],
  publicKeys: Array<{ keyId: string; publicKey: string; current: boolean }>,
  directory: string,
): Promise<StatementEvidence[]> {
  const lastDay = days.at(-1)!;
  const after = new Date(Date.parse(`${lastDay}T00:00:00.000Z`) + 86_400_000 + 6 * 60_000);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const reader = await startServer(loadConfig({ ...env, PORT: '0', LOG_LEVEL: 'error' }), {
    clock: { now: () => new Date(after) },
    logStream: silent,
  });
  try {
    const statements: StatementEvidence[] = [];
    for (const day of days) {
      const answer = await http(reader.url, 'GET', `/api/v1/integration/statements/${day}`, {
        headers: { 'x-tenant-id': tenantId, 'x-api-key': integrationKey },
      });
      if (answer.status !== 200) throw new Error(`statement ${day}: ${answer.status} ${answer.text}`);
      const signature = answer.headers.get('x-statement-signature') ?? '';
      const keyId = answer.headers.get('x-statement-key-id');
      const key = publicKeys.find((published) => published.keyId === keyId);
      const signatureValid =
        !!key &&
        verify(null, Buffer.from(answer.text), createPublicKey(key.publicKey), Buffer.from(signature, 'base64'));
      writeFileSync(join(directory, `statement-${day}.json`), answer.text);
      writeFileSync(join(directory, `statement-${day}.json.sig`), signature);
      statements.push({ day, signatureValid, document: JSON.parse(answer.text) });
    }
    return statements;
  } finally {
    await reader.stop();
  }
}

/** `bookmaker reconcile`, the casino's own tool, on the statement and the wallet's journal (a one-day run). */
async function partnerReconcile(
  env: Record<string, string>,
  day: string,
  journal: WalletRow[],
  keys: unknown,
  directory: string,
): Promise<void> {
  const lines = ['txId,amount,currency,direction,kind'];
  for (const row of journal.filter((tx) => tx.status === 200)) {
    lines.push([row.txId, row.amount, CURRENCY, row.endpoint, row.kind].join(','));
  }
  writeFileSync(join(directory, `journal-${day}.csv`), `${lines.join('\n')}\n`);
  writeFileSync(join(directory, 'statement-keys.json'), JSON.stringify(keys));
  const run = await runCli(env, [
    'reconcile',
    '--statement',
    join(directory, `statement-${day}.json`),
    '--public-key',
    join(directory, 'statement-keys.json'),
    '--wallet-export',
    join(directory, `journal-${day}.csv`),
    '--json',
  ]);
  const records = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const summary = records.find((record) => 'walletExport' in record) as { reversed?: unknown[] } | undefined;
  const differences = records.filter((record) => !('walletExport' in record));
  figures.reconcile =
    run.code === 0
      ? `no differences (${summary?.reversed?.length ?? 0} stakes reversed by their rollback, noted)`
      : `exit ${run.code}: ${differences.length} differences`;
  if (run.code !== 0) {
    discrepancies.push({
      check: 'partner_reconcile',
      detail: `bookmaker reconcile (${day}) exited ${run.code}: ${run.stdout.slice(0, 2_000)} ${run.stderr.slice(0, 500)}`,
    });
  }
}

// ---- the run ----

function progressLine(depth: { unsettled: number; held: number } | undefined): string {
  const seconds = Math.round((performance.now() - started) / 1000);
  return (
    `[${String(seconds).padStart(4)} s] ${phase.padEnd(14)} bets ${figures.bets.sent}/${opts.bets} ` +
    `(accepted ${figures.bets.accepted})  restarts ${figures.restarts}/${opts.restarts}` +
    `${service?.down ? ' (restarting)' : ''}  queue ${depth ? `${depth.unsettled} (held ${depth.held})` : '?'}  ` +
    `faults ${figures.faults.injected}`
  );
}

function toLedgerRow(row: any): LedgerRow {
  const last = row.history.at(-1);
  return {
    txId: row.txId,
    betId: row.betId,
    player: row.externalPlayerId,
    endpoint: row.endpoint,
    kind: row.kind,
    amount: row.amount,
    status: row.status,
    holdReason: row.holdReason,
    lastOutcome: row.lastOutcome,
    operatorCode: row.operatorCode,
    resolvedAt: row.resolvedAt,
    decidedBecause: row.review?.reason ?? (last ? [last.cause, last.note].filter(Boolean).join(': ') : null),
  };
}

function printFigures(): void {
  const lines: string[] = [];
  const line = (name: string, value: string | number) => lines.push(`${name.padEnd(26)} ${value}`);
  lines.push('', `fault soak, seed ${figures.seed}, database: ${figures.database}`);
  const bets = figures.bets;
  line(
    'bets',
    `${bets.sent} sent of ${bets.requested} (${bets.singles} singles, ${bets.accumulators} accumulators): ` +
      `${bets.accepted} accepted, ${Object.values(bets.refused).reduce((a, b) => a + b, 0)} refused ` +
      `${JSON.stringify(bets.refused)}, sent again ${JSON.stringify(bets.sentAgain)}`,
  );
  line(
    'cash-outs',
    `${figures.cashOuts.full} full, ${figures.cashOuts.partial} partial, ${figures.cashOuts.unavailable} not offered`,
  );
  line('markets', `${figures.markets.settled} settled, ${figures.markets.resettled} resettled`);
  const { feed: fed } = figures;
  line(
    'demo feed',
    `${fed.ticks} ticks, ${fed.messages} messages (${fed.applied} applied, ${fed.kept} kept, ${fed.refused} refused), ` +
      `${fed.failedTicks} ticks failed, ${fed.outages} outages, ${fed.recovered} recovered`,
  );
  lines.push('movements that count (kind/endpoint: how many, amount)');
  for (const [kind, { movements, amount }] of Object.entries(figures.movements)) {
    line(`  ${kind}`, `${String(movements).padStart(6)}  ${String(amount).padStart(12)}`);
  }
  line('obligations by state', JSON.stringify(figures.obligations));
  line(
    'faults hit',
    `${figures.faults.injected} (${figures.faults.appliedBeforeAnswer} applied before the faulty answer; ` +
      `${figures.faults.notHit} injected but never hit)`,
  );
  for (const [mode, count] of Object.entries(figures.faults.byMode)) line(`  ${mode}`, count);
  line(
    'restarts (SIGKILL)',
    `${figures.restarts}${figures.unexpectedExits ? `, ${figures.unexpectedExits} unexpected exits` : ''}`,
  );
  line(
    'operator decisions',
    `${figures.operator.resolved} resolved, ${figures.operator.cancelled} cancelled, ${figures.operator.retried} retried; ` +
      `${figures.redeliveries} redeliveries asked by the casino`,
  );
  const amid = figures.duringResettlements;
  const refusals = (refused: Record<string, number>) =>
    `${Object.values(refused).reduce((a, b) => a + b, 0)} refused ${JSON.stringify(refused)}`;
  line(
    'during resettlements',
    `${amid.sent} decisions sent beside ${amid.resettlements} of ${figures.markets.resettled} resettlements: ` +
      `${amid.done} done, ${refusals(amid.refused)}${amid.unexpected ? `, ${amid.unexpected} unexpected` : ''}`,
  );
  for (const [decision, tally] of Object.entries(amid.byAction)) {
    const who = decision === 'redeliver' ? 'casino' : 'operator';
    line(`  ${who} ${decision}`, `${tally.sent} sent, ${tally.done} done, ${refusals(tally.refused)}`);
  }
  line('wallet requests', `${figures.wallet.requests} (${figures.wallet.resent} movements sent more than once)`);
  line('statements', `${figures.statements.days.join(', ')}: ${figures.statements.movements} movements`);
  line('partner reconcile', figures.reconcile);
  line('wall time', `${(figures.wallMs / 1000).toFixed(1)} s`);
  line('discrepancies', figures.discrepancies);
  for (const found of figures.discrepancyList.slice(0, 50)) lines.push(`  ${found.check}: ${found.detail}`);
  if (figures.discrepancyList.length > 50)
    lines.push(`  ... and ${figures.discrepancyList.length - 50} more (--json lists all)`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bookmaker-soak-'));
  const files = mkdtempSync(join(tmpdir(), 'bookmaker-soak-files-'));
  const databaseUrl = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
  const walletDatabase = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
  serviceEnv = {
    APP_ENV: 'development',
    SECRETS_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    // The start-up narration (the URL the server listens on) is logged at info.
    LOG_LEVEL: 'info',
    METRICS_PORT: '0',
    FEED_SILENCE_SECONDS: String(FEED_SILENCE_SECONDS),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  say(
    `seed ${opts.seed}: ${opts.bets} bets, ${opts.restarts} restarts, at most ${opts.minutes} min, on ` +
      `${figures.database}${databaseUrl ? '' : ` in ${dataDir}`}`,
  );
  let ticker: NodeJS.Timeout | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      if (ticker) clearInterval(ticker);
      await feed?.stop().catch(() => undefined);
      await service?.stop().catch(() => undefined);
      await wallet?.stop().catch(() => undefined);
      if (opts.keep) {
        say(`kept: DATA_DIR=${dataDir} ${databaseUrl ? `DATABASE_URL=${databaseUrl} ` : ''}files in ${files}`);
        return;
      }
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(files, { recursive: true, force: true });
      if (databaseUrl) await dropPostgresDatabase(databaseUrl).catch(() => undefined);
      if (walletDatabase) await dropPostgresDatabase(walletDatabase).catch(() => undefined);
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      say(`${signal}: stopping the service and the wallet, removing the run's data (seed ${opts.seed})`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  try {
    wallet = await startWalletProcess(walletDatabase);
    const rounds = await provision();
    ticker = setInterval(() => {
      if (service.down) return say(progressLine(undefined));
      queueDepth()
        .then((depth) => say(progressLine(depth)))
        .catch(() => say(progressLine(undefined)));
    }, 3_000);
    ticker.unref();

    const faults = new FaultInjector();
    faults.start();
    feed!.start();
    const plans = killPlans(rounds);
    killsPending = plans.length;
    const kills = runKills(plans).finally(() => (killsPending = 0));
    let played = 0;
    for (const [r, round] of rounds.entries()) {
      if (performance.now() >= activeUntil) break;
      phase = `place ${r + 1}/${rounds.length}`;
      await placeRound(round);
      if (r < FEED_OUTAGES) {
        phase = `feed outage ${r + 1}`;
        await feed!.outage();
      }
      phase = `settle ${r + 1}/${rounds.length}`;
      for (const action of round.actions) await act(action);
      if (r > 0) for (const action of rounds[r - 1]!.late) await act(action);
      played = r + 1;
    }
    // The last round played gets its late corrections too (markets without bets are left alone).
    phase = 'settle last';
    if (played > 0) for (const action of rounds[played - 1]!.late) await act(action);

    phase = 'drain';
    progress.drain = true;
    await feed!.stop();
    if (figures.feed.applied === 0) discrepancies.push({ check: 'feed_silent', detail: 'no feed message applied' });
    await faults.stop();
    const drained = await drain();
    await kills;
    if (!drained)
      discrepancies.push({ check: 'not_drained', detail: `the queue did not drain within ${opts.minutes} min` });
    clearInterval(ticker);

    phase = 'check';
    say('drained: reading the ledger, the wallet and the statements');
    const ledger = (await obligations()).map(toLedgerRow);
    const journal: WalletRow[] = (await wallet.control('GET', '/transactions')).transactions.map((tx: any) => ({
      txId: tx.tx_id,
      endpoint: tx.endpoint,
      player: tx.player_id,
      amount: Number(tx.amount),
      kind: tx.kind,
      status: Number(tx.status),
      reversed: tx.reversed === true,
    }));
    const balances: Record<string, number> = {};
    for (const player of players)
      balances[player] = Number((await wallet.control('GET', `/players/${player}`)).balance);
    const requests: Array<{ txId: string | null }> = (await wallet.control('GET', '/requests')).requests;
    const sends = new Map<string, number>();
    for (const request of requests) if (request.txId) sends.set(request.txId, (sends.get(request.txId) ?? 0) + 1);
    figures.wallet = { requests: requests.length, resent: [...sends.values()].filter((count) => count > 1).length };
    const keys = expect(await call('GET', '/api/v1/integration/statement-keys'), 200, 'statement keys');
    await service.stop();

    const days = new Set([dayOf(Date.now())]);
    for (const row of ledger) if (row.resolvedAt) days.add(dayOf(row.resolvedAt));
    const sortedDays = [...days].sort();
    const statements = await readStatements(serviceEnv, sortedDays, keys.keys, files);
    figures.statements = {
      days: sortedDays,
      movements: statements.reduce((sum, statement) => sum + statement.document.movements.length, 0),
    };
    if (sortedDays.length === 1) await partnerReconcile(serviceEnv, sortedDays[0]!, journal, keys, files);
    else
      figures.reconcile = `not run: the run spans ${sortedDays.length} UTC days and the wallet's journal has no dates`;

    discrepancies.push(
      ...findDiscrepancies({
        openingBalance: OPENING,
        balances,
        ledger,
        wallet: journal,
        bets: accepted,
        results: Object.fromEntries(
          rounds
            .flatMap((round) => round.markets)
            .flatMap((market) => (market.results ? [[market.id, market.results]] : [])),
        ),
        statements,
      }),
    );
    figures.movements = movementsByKind(ledger);
    figures.obligations = statesOf(ledger);
    return discrepancies.length === 0 ? 0 : 1;
  } finally {
    figures.wallMs = Math.round(performance.now() - started);
    figures.discrepancies = discrepancies.length;
    figures.discrepancyList = discrepancies;
    await cleanUp();
  }
}

let code: number;
try {
  code = await main();
} catch (error) {
  discrepancies.push({ check: 'soak_failed', detail: (error as Error).stack ?? String(error) });
  figures.discrepancies = discrepancies.length;
  figures.discrepancyList = discrepancies;
  say(`the soak could not finish during ${phase}: ${(error as Error).stack ?? String(error)}`);
  code = 2;
}
if (opts.json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
else printFigures();
say(
  code === 0
    ? `no discrepancy (seed ${opts.seed})`
    : `${figures.discrepancies} discrepancies: replay with npm run soak -- --seed ${opts.seed} --bets ${opts.bets} ` +
        `--restarts ${opts.restarts} --minutes ${opts.minutes}`,
);
process.exit(code);

/**
 * `bookmaker sandbox tour`: docs/sandbox-outcomes.md's worked example as a program a casino runs against its own
 * sandbox environment. Over the public API only (the integration key, a player session, the sandbox controls), it
 * walks one player through every kind of movement a wallet can receive, waits for each to be answered by the wallet,
 * and prints what the wallet got. Exit 0 when every kind reached the wallet, 1 when one did not (or a call failed),
 * 2 for a command-line mistake.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { exitCodeOf, UsageError, type Output, type StandaloneCommandSpec } from '../commands/definitions.ts';
import { AppError, defineErrors } from '../platform/errors.ts';
import { isLoopback } from './wallet-certify.ts';

/** Why a tour stopped, each said with what to do next. */
const tourErrors = defineErrors({
  tour_unreachable: { status: 503, message: 'Bookmaker cannot be reached at --url.' },
  tour_call_refused: { status: 400, message: 'Bookmaker refused a call of the tour.' },
  tour_no_market: {
    status: 409,
    message: 'The catalog has no upcoming match with an open market to bet on: try again later.',
  },
  tour_wallet_silent: { status: 504, message: 'Your wallet has not answered a movement in time.' },
  tour_incomplete: { status: 409, message: 'Not every kind of movement reached your wallet and was applied.' },
});

type Values = Record<string, string | boolean | undefined>;

export const SANDBOX_TOUR: StandaloneCommandSpec = {
  words: ['sandbox', 'tour'],
  synopsis: '--url URL --tenant ID --player ID [--json]',
  summary: 'walk a sandbox player through every movement kind your wallet can receive',
  details: [
    '--url: Bookmaker, as your server calls it (https://…; http only to a loopback host).',
    '--tenant: your sandbox environment\'s tenant id (it ends in "-sandbox").',
    '--player: a test player of your sandbox wallet (your id) with at least 50.00 in it.',
    '--json: print each movement as one JSON object a line, then a summary, instead of text.',
    'The sandbox integration key is read from BOOKMAKER_INTEGRATION_KEY (kept out of the process list).',
    '',
    'It opens a session for the player, places four 10.00 bets on an upcoming match and decides them with the sandbox',
    'controls: a partial cash-out, a payout, a correction debit and credit, a reopen and a cancel (bet A), a payout of',
    '0 (B), a refund (C), a stake rolled back (D); then an adjustment credit and debit of 1.00. Each step waits for',
    "your wallet's answer. The player ends with 10.25 less: bet B's stake and the margin of A's cash-out.",
    'See docs/sandbox-outcomes.md ("Worked example").',
    '',
    'Example:',
    '  BOOKMAKER_INTEGRATION_KEY=bm_int_… npx bookmaker sandbox tour --url https://sportsbook.example.com \\',
    '    --tenant tn_3f9a1c0e5b7d2468-sandbox --player cert-funded',
  ].join('\n'),
  options: {
    url: { type: 'string' },
    tenant: { type: 'string' },
    player: { type: 'string' },
    json: { type: 'boolean' },
  },
  required: ['url', 'tenant', 'player'],
  standalone: (values, out, env) => exitCodeOf(SANDBOX_TOUR, () => tour(settingsOf(values, env), out), { out }),
};

interface Settings {
  url: string;
  tenant: string;
  player: string;
  key: string;
  json: boolean;
}

function settingsOf(values: Values, env: NodeJS.ProcessEnv): Settings {
  const key = env.BOOKMAKER_INTEGRATION_KEY;
  if (!key) throw new UsageError("set BOOKMAKER_INTEGRATION_KEY to your sandbox environment's integration key");
  let url: URL;
  try {
    url = new URL(values.url as string);
  } catch {
    throw new UsageError(`--url "${String(values.url)}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) {
    throw new UsageError('--url must be https (http only to a loopback host): the integration key is sent to it');
  }
  const tenant = values.tenant as string;
  if (!tenant.endsWith('-sandbox')) {
    throw new UsageError(`--tenant "${tenant}" is not a sandbox environment: its id ends in "-sandbox"`);
  }
  return { url: url.origin, tenant, player: values.player as string, key, json: values.json === true };
}

/** A movement as the wallet got it, and what became of it. */
interface Seen {
  step: string;
  txId: string;
  kind: string;
  direction: string;
  amount: number;
  status: string;
}

/** The kinds the tour must show, each as `kind direction` (a payout of 0 apart from a payout). */
const EVERY_KIND = [
  'bet debit',
  'cashout credit',
  'payout credit',
  'payout 0 credit',
  'refund credit',
  'resettle debit',
  'resettle credit',
  'rollback credit',
  'adjustment credit',
  'adjustment debit',
] as const;

const kindOf = (seen: Seen) =>
  seen.kind === 'payout' && seen.amount === 0 ? 'payout 0 credit' : `${seen.kind} ${seen.direction}`;

async function tour(settings: Settings, out: Output): Promise<void> {
  const api = new SandboxApi(settings);
  const run = randomBytes(4).toString('hex');
  const seen: Seen[] = [];
  const say = (line: string) => out.progress(`bookmaker sandbox tour: ${line}`);
  const record = (step: string, movements: Array<Omit<Seen, 'step'>>) => {
    for (const movement of movements) {
      if (seen.some((known) => known.txId === movement.txId)) continue;
      const entry = { step, ...movement };
      seen.push(entry);
      if (settings.json) out.result(JSON.stringify(entry));
      else out.result(`${step.padEnd(34)} ${movement.txId.padEnd(34)} ${kindOf(entry).padEnd(18)} ${money(entry)}`);
    }
  };

  say(`opening a session for ${settings.player} in ${settings.tenant}`);
  const token = await api.session();
  const leg = await api.upcomingSelection();
  say(`betting on ${leg.name} at ${leg.odds} (${leg.event})`);

  // bet A: everything one bet can show after its stake
  const a = await api.place(token, leg, `tour-${run}-a`);
  record('A: placed (stake)', await api.settledMovements(a));
  await api.cashOutPart(token, a, 500, `tour-${run}-a-co`);
  record('A: half cashed out', await api.settledMovements(a));
  const steps: Array<[string, string, unknown]> = [
    ['A: settled won (payout)', 'settle', { results: [{ selectionId: leg.id, result: 'won' }] }],
    ['A: resettled lost (correction)', 'resettle', { results: [{ selectionId: leg.id, result: 'lost' }] }],
    ['A: resettled won (correction)', 'resettle', { results: [{ selectionId: leg.id, result: 'won' }] }],
    ['A: reopened (nothing moves)', 'reopen', {}],
    ['A: cancelled (stake back)', 'cancel', { reason: 'sandbox tour' }],
  ];
  for (const [index, [step, control, body]] of steps.entries()) {
    await api.control(a, control, `tour-${run}-a-${index}`, body);
    record(step, await api.settledMovements(a));
  }
  // bets B, C and D: the other initial credits, and a rollback instead of one
  const others: Array<[string, string, string, unknown]> = [
    ['b', 'B: settled lost (payout of 0)', 'settle', { results: [{ selectionId: leg.id, result: 'lost' }] }],
    ['c', 'C: settled void (refund)', 'settle', { results: [{ selectionId: leg.id, result: 'void' }] }],
    ['d', 'D: cancelled at once (rollback)', 'cancel', { reason: 'sandbox tour' }],
  ];
  for (const [name, step, control, body] of others) {
    const bet = await api.place(token, leg, `tour-${run}-${name}`);
    record(`${name.toUpperCase()}: placed (stake)`, await api.settledMovements(bet));
    await api.control(bet, control, `tour-${run}-${name}-1`, body);
    record(step, await api.settledMovements(bet));
  }
  for (const direction of ['credit', 'debit'] as const) {
    record(`an adjustment ${direction}`, [await api.adjust(`tour-${run}-adj-${direction}`, direction)]);
  }

  const missing = EVERY_KIND.filter((kind) => !seen.some((movement) => kindOf(movement) === kind));
  const unapplied = seen.filter((movement) => movement.status !== 'applied');
  if (settings.json) out.result(JSON.stringify({ movements: seen.length, missing, unapplied: unapplied.length }));
  if (missing.length > 0 || unapplied.length > 0) {
    const what = [
      ...missing.map((kind) => `no ${kind}`),
      ...unapplied.map((movement) => `${movement.txId} ${movement.status}`),
    ];
    throw tourErrors.tour_incomplete(
      { missing, unapplied: unapplied.map((movement) => movement.txId) },
      `${what.join('; ')}. Look the movements up with GET /api/v1/integration/transactions/{txId}: each keeps ` +
        "your wallet's answers.",
    );
  }
  say(`every kind of movement reached your wallet and was applied: ${seen.length} movements`);
}

const money = (seen: Seen) =>
  `${seen.direction === 'debit' ? '-' : '+'}${(seen.amount / 100).toFixed(2)} ${seen.status}`;

/** How long a movement may take to be answered before the tour gives up: the wallet's retries included. */
const ANSWER_WITHIN_MS = 60_000;
const LOOK_EVERY_MS = 250;

interface Leg {
  id: string;
  name: string;
  odds: string;
  eventId: string;
  event: string;
}

/** The calls the tour makes, each over HTTP as a casino's server makes them. */
class SandboxApi {
  readonly #settings: Settings;
  constructor(settings: Settings) {
    this.#settings = settings;
  }

  async session(): Promise<string> {
    const answer = await this.#call('POST', '/api/v1/integration/sessions', {
      server: true,
      body: { externalPlayerId: this.#settings.player },
    });
    return (answer as { token: string }).token;
  }

  /** A selection of an open main market of a match not yet started (no in-play delay, results decided by us). */
  async upcomingSelection(): Promise<Leg> {
    const { sports } = (await this.#call('GET', '/api/v1/catalog/sports')) as {
      sports: Array<{ id: string; eventCount: number }>;
    };
    for (const sport of sports.filter((entry) => entry.eventCount > 0)) {
      const { competitions } = (await this.#call('GET', `/api/v1/catalog/sports/${sport.id}`)) as SportPage;
      for (const event of competitions.flatMap((competition) => competition.events)) {
        const market = event.mainMarket;
        if (event.status !== 'scheduled' || market?.status !== 'open') continue;
        const selection = market.selections[0]!;
        const name = `${selection.name} (${market.name})`;
        return {
          id: selection.id,
          name,
          odds: selection.odds,
          eventId: event.id,
          event: `${event.home} v ${event.away}`,
        };
      }
    }
    throw tourErrors.tour_no_market();
  }

  /** A 10.00 single at the selection's price now (a trader or a feed may have moved it since the last bet). */
  async place(token: string, leg: Leg, requestId: string): Promise<string> {
    const { event } = (await this.#call('GET', `/api/v1/catalog/events/${leg.eventId}`)) as {
      event: { markets: Array<{ selections: Array<{ id: string; odds: string }> }> };
    };
    const odds = event.markets
      .flatMap((market) => market.selections)
      .find((selection) => selection.id === leg.id)?.odds;
    const answer = (await this.#call('POST', '/api/v1/bets', {
      token,
      body: { requestId, stake: 10_00, legs: [{ selectionId: leg.id, odds: odds ?? leg.odds }] },
    })) as { bet: { id: string } };
    return answer.bet.id;
  }

  /**
   * Cashes out part of the stake at the offer of the moment, as the player's app does: an offer that moved between
   * the read and the cash-out (409 cashout_offer_changed) is read again, a few times.
   */
  async cashOutPart(token: string, betId: string, stake: number, requestId: string): Promise<void> {
    for (let tries = 1; ; tries++) {
      const { offer } = (await this.#call('GET', `/api/v1/bets/${betId}/cashout?stake=${stake}`, { token })) as {
        offer: { amount: number };
      };
      const body = { requestId: `${requestId}-${tries}`, amount: offer.amount, stake };
      try {
        await this.#call('POST', `/api/v1/bets/${betId}/cashout`, { token, body });
        return;
      } catch (error) {
        const moved = error instanceof AppError && error.details?.status === 409 && tries < 3;
        if (!moved) throw error;
      }
    }
  }

  async control(betId: string, control: string, key: string, body: unknown): Promise<void> {
    await this.#call('POST', `/api/v1/integration/sandbox/bets/${betId}/${control}`, { server: true, key, body });
  }

  /** The bet's movements once the wallet has answered each one (none still owed). */
  async settledMovements(betId: string): Promise<Array<Omit<Seen, 'step'>>> {
    return this.#until(`bet ${betId}'s movements`, async () => {
      const { bet } = (await this.#call('GET', `/api/v1/integration/sandbox/bets/${betId}`, { server: true })) as {
        bet: { status: string; movements: Array<Omit<Seen, 'step'>> };
      };
      const waiting = bet.status === 'pending' || bet.movements.some((movement) => movement.status === 'owed');
      return waiting ? undefined : bet.movements;
    });
  }

  async adjust(key: string, direction: 'credit' | 'debit'): Promise<Omit<Seen, 'step'>> {
    const body = { externalPlayerId: this.#settings.player, direction, amount: 1_00, reason: 'sandbox tour' };
    const answer = (await this.#call('POST', '/api/v1/integration/sandbox/adjustments', {
      server: true,
      key,
      body,
    })) as { owed: Array<{ txId: string }> };
    const txId = answer.owed[0]!.txId;
    return this.#until(`${txId}`, async () => {
      const { transaction } = (await this.#call('GET', `/api/v1/integration/transactions/${txId}`, {
        server: true,
      })) as { transaction: { state: string; kind: string; amount: number } };
      if (transaction.state === 'pending') return undefined;
      const status = transaction.state === 'delivered' ? 'applied' : transaction.state;
      return { txId, kind: transaction.kind, direction, amount: transaction.amount, status };
    });
  }

  async #until<T>(what: string, look: () => Promise<T | undefined>): Promise<T> {
    const deadline = performance.now() + ANSWER_WITHIN_MS;
    for (;;) {
      const found = await look();
      if (found !== undefined) return found;
      if (performance.now() > deadline) {
        throw tourErrors.tour_wallet_silent(
          { waitedSeconds: ANSWER_WITHIN_MS / 1000 },
          `${what}: your wallet has not answered within ${ANSWER_WITHIN_MS / 1000} s. Is it running, and does it ` +
            'answer Bookmaker (GET /api/v1/integration/obligations?state=pending lists what waits)?',
        );
      }
      await sleep(LOOK_EVERY_MS);
    }
  }

  async #call(
    method: string,
    path: string,
    options: { server?: boolean; token?: string; key?: string; body?: unknown } = {},
  ): Promise<unknown> {
    const headers: Record<string, string> = {};
    if (options.server)
      Object.assign(headers, { 'x-tenant-id': this.#settings.tenant, 'x-api-key': this.#settings.key });
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.key) headers['idempotency-key'] = options.key;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    let response: Response;
    try {
      response = await fetch(`${this.#settings.url}${path}`, { method, headers, body });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw tourErrors.tour_unreachable(
        { url: this.#settings.url },
        `${this.#settings.url} cannot be reached (${cause?.code ?? cause?.message ?? String(error)}): check --url ` +
          'and that the service runs.',
      );
    }
    const text = await response.text();
    if (!response.ok) {
      throw tourErrors.tour_call_refused(
        { status: response.status },
        `${method} ${path.split('?')[0]} answered ${response.status}: ${text.slice(0, 300)}`,
      );
    }
    return JSON.parse(text) as unknown;
  }
}

type SportPage = {
  competitions: Array<{
    events: Array<{
      id: string;
      home: string;
      away: string;
      status: string;
      mainMarket: {
        name: string;
        status: string;
        selections: Array<{ id: string; name: string; odds: string }>;
      } | null;
    }>;
  }>;
};

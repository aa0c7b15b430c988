/**
 * `bookmaker sandbox tour`: docs/sandbox-outcomes.md's worked example as a program a casino runs against its own
 * sandbox environment. Over the public API only (the integration key, a player session, the sandbox controls), it
 * walks one player through every kind of movement a wallet can receive, waits for each to be answered by the wallet,
 * and prints what the wallet got. Exit 0 when every kind reached the wallet, 1 when one did not (or a call failed),
 * 2 for a command-line mistake.
 */
import { randomBytes } from 'node:crypto';
import { exitCodeOf, UsageError, type Output, type StandaloneCommandSpec } from '../commands/definitions.ts';
import { SandboxApi, tourErrors, type Seen, type Settings } from './sandbox-api.ts';
import { isLoopback } from './wallet-certify.ts';

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

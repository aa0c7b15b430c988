// npm run bench: how expensive is a bet placement, measured against a baseline taken in the same run.
//
// Baseline: GET /healthz over the same HTTP stack (the cost of one request). Measured: GET /api/v1/wallet/balance
// (one signed wallet call), POST /api/v1/bets (one transaction, one debit, one more transaction), and the payout
// rule against a plain float multiplication. Figures are reported as ratios to the baseline, since absolute times
// depend on the machine. Everything runs on loopback, bounded in count.
import { performance } from 'node:perf_hooks';
import { potentialPayout } from '../src/catalog/odds.ts';
import { startTestApp } from '../test/helpers/app.ts';
import { newRequestId, playerWithBalance, setUpSportsbook } from '../test/helpers/sportsbook.ts';
import { startTestWallet } from '../test/helpers/wallet.ts';
import { systemClock } from '../src/platform/clock.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);

async function timeEach(rounds: number, work: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(20, rounds); i++) await work(-1 - i); // warm-up
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await work(i);
  return (performance.now() - started) / rounds;
}

const t = await startTestApp({ LOG_LEVEL: 'silent' });
t.clock.set(systemClock.now());
const wallet = await startTestWallet(t.clock);
try {
  const book = await setUpSportsbook(t, wallet);
  await t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
    token: book.admin,
    body: {
      limits: {
        minStake: 1,
        maxStake: 1_000_000,
        maxPayout: 1_000_000_000,
        maxSelectionLiability: 1_000_000_000_000,
        maxEventLiability: 1_000_000_000_000,
      },
    },
  });
  const token = await playerWithBalance(t, book, wallet, 'bench-player', 1_000_000_000);
  const selection = book.events[0]!.home;

  const baseline = await timeEach(ROUNDS, () => t.request('GET', '/healthz'));
  const balance = await timeEach(ROUNDS, () => t.request('GET', '/api/v1/wallet/balance', { token }));
  const placement = await timeEach(ROUNDS, async () => {
    const response = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 100, legs: [{ selectionId: selection, odds: '2.10' }] },
    });
    if (response.status !== 201) throw new Error(`placement failed: ${response.text}`);
  });

  const legs = [2100, 3600, 1850, 2450];
  const floatStarted = performance.now();
  let sink = 0;
  for (let i = 0; i < 200_000; i++) sink += Math.floor(((i % 1000) + 1) * 2.1 * 3.6 * 1.85 * 2.45);
  const floatTime = performance.now() - floatStarted;
  const exactStarted = performance.now();
  for (let i = 0; i < 200_000; i++) sink += Number(potentialPayout((i % 1000) + 1, legs));
  const exactTime = performance.now() - exactStarted;

  const rows = [
    ['GET /healthz (baseline)', baseline, 1],
    ['GET /api/v1/wallet/balance', balance, balance / baseline],
    ['POST /api/v1/bets (single, accepted)', placement, placement / baseline],
  ] as const;
  console.log(`rounds: ${ROUNDS}, database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`);
  for (const [name, ms, ratio] of rows)
    console.log(`${name.padEnd(40)} ${ms.toFixed(3).padStart(9)} ms/op   x${ratio.toFixed(1)} baseline`);
  console.log(
    `${'payout rule (BigInt, 4 legs)'.padEnd(40)} x${(exactTime / floatTime).toFixed(1)} a float multiplication (${sink > 0 ? 'checked' : ''})`,
  );
} finally {
  await t.close();
  await wallet.close();
}

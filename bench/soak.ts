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
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresDatabase, dropPostgresDatabase } from '../test/helpers/database.ts';
import { provisionAccounts } from './soak/access.ts';
import { placeRound } from './soak/betting.ts';
import { drain, queueDepth } from './soak/drain.ts';
import { FaultInjector } from './soak/faults.ts';
import { FEED_SILENCE_SECONDS, seedDemoFeed, type FeedSimulator } from './soak/feed.ts';
import { readAndCheck } from './soak/final-checks.ts';
import { killPlans, runKills } from './soak/kills.ts';
import { printFigures, progressLine } from './soak/report.ts';
import { planRounds } from './soak/rounds.ts';
import { activeUntil, discrepancies, figures, opts, progress, say, started } from './soak/run-state.ts';
import { service, startWallet, wallet } from './soak/service.ts';
import { act } from './soak/settling.ts';

/** Outages of the demo feed, one after each of the first rounds' bets. */
const FEED_OUTAGES = 2;

async function main(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bookmaker-soak-'));
  const files = mkdtempSync(join(tmpdir(), 'bookmaker-soak-files-'));
  const databaseUrl = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
  const walletDatabase = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
  const serviceEnv: Record<string, string> = {
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
  let feed: FeedSimulator | undefined;
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
    await startWallet(walletDatabase);
    await provisionAccounts(serviceEnv);
    feed = await seedDemoFeed(serviceEnv);
    const rounds = await planRounds();
    ticker = setInterval(() => {
      if (service.down) return say(progressLine(undefined));
      queueDepth()
        .then((depth) => say(progressLine(depth)))
        .catch(() => say(progressLine(undefined)));
    }, 3_000);
    ticker.unref();

    const faults = new FaultInjector();
    faults.start();
    feed.start();
    const plans = killPlans(rounds);
    progress.killsPending = plans.length;
    const kills = runKills(plans).finally(() => (progress.killsPending = 0));
    let played = 0;
    for (const [r, round] of rounds.entries()) {
      if (performance.now() >= activeUntil) break;
      progress.phase = `place ${r + 1}/${rounds.length}`;
      await placeRound(round);
      if (r < FEED_OUTAGES) {
        progress.phase = `feed outage ${r + 1}`;
        await feed.outage();
      }
      progress.phase = `settle ${r + 1}/${rounds.length}`;
      for (const action of round.actions) await act(action);
      if (r > 0) for (const action of rounds[r - 1]!.late) await act(action);
      played = r + 1;
    }
    // The last round played gets its late corrections too (markets without bets are left alone).
    progress.phase = 'settle last';
    if (played > 0) for (const action of rounds[played - 1]!.late) await act(action);

    progress.phase = 'drain';
    progress.drain = true;
    await feed.stop();
    if (figures.feed.applied === 0) discrepancies.push({ check: 'feed_silent', detail: 'no feed message applied' });
    await faults.stop();
    const drained = await drain();
    await kills;
    if (!drained)
      discrepancies.push({ check: 'not_drained', detail: `the queue did not drain within ${opts.minutes} min` });
    clearInterval(ticker);

    progress.phase = 'check';
    say('drained: reading the ledger, the wallet and the statements');
    await readAndCheck(rounds, serviceEnv, files);
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
  say(`the soak could not finish during ${progress.phase}: ${(error as Error).stack ?? String(error)}`);
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

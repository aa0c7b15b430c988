import { randomInt } from 'node:crypto';
import type { AppServices } from './app-services.ts';
import type { Config } from './platform/config.ts';
import type { TypedApp } from './platform/http/types.ts';
import { PeriodicJob } from './platform/jobs.ts';
import { simulateLiveTick } from './seed/live-simulator.ts';
import { randomSource } from './seed/random.ts';

const HOUR_MS = 60 * 60 * 1000;
/** How often the running service looks for bets left pending by a placement that lost its database. */
const STALE_SWEEP_MS = 10_000;
const DEMO_TICK_MS = 3_000;
/** How often silent feed producers are looked for: a producer is down within a second of FEED_SILENCE_SECONDS. */
const FEED_SILENCE_CHECK_MS = 1_000;

/** The periodic jobs the server runs (and stops before the database closes); the demo live simulator if asked. */
export function periodicJobs(
  http: TypedApp,
  { staff, idempotency, integration, recovery, catalog, producers }: AppServices,
  config: Config,
  demoLive: boolean | undefined,
): PeriodicJob[] {
  const jobs = [
    new PeriodicJob('purge-stale-staff-tokens', HOUR_MS, () => staff.purgeStaleTokens(), http.log),
    new PeriodicJob('erase-expired-replay-bodies', HOUR_MS, () => idempotency.eraseExpiredResponses(), http.log),
    new PeriodicJob('purge-launch-records', HOUR_MS, () => integration.purgeLaunchRecords(), http.log),
    new PeriodicJob('resolve-stale-pending-bets', STALE_SWEEP_MS, () => recovery.resolveStalePendingBets(), http.log),
    new PeriodicJob('feed-silence', FEED_SILENCE_CHECK_MS, () => producers.downSilent(), http.log),
  ];
  if (demoLive) {
    if (config.appEnv !== 'development') throw new Error('The demo live simulator runs only with APP_ENV=development.');
    const random = randomSource(randomInt(2 ** 31));
    jobs.push(new PeriodicJob('demo-live-simulator', DEMO_TICK_MS, () => simulateLiveTick(catalog, random), http.log));
  }
  return jobs;
}

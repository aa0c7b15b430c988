import type { AppServices } from './app-services.ts';
import type { TypedApp } from './platform/http/types.ts';
import { PeriodicJob } from './platform/jobs.ts';

const HOUR_MS = 60 * 60 * 1000;
/** How often the running service looks for bets left pending by a placement that lost its database. */
const STALE_SWEEP_MS = 10_000;
/** How often silent feed producers are looked for: a producer is down within a second of FEED_SILENCE_SECONDS. */
const FEED_SILENCE_CHECK_MS = 1_000;

/** The periodic jobs the server runs (and stops before the database closes). */
export function periodicJobs(
  http: TypedApp,
  { staff, idempotency, integration, recovery, producers }: AppServices,
): PeriodicJob[] {
  return [
    new PeriodicJob('purge-stale-staff-tokens', HOUR_MS, () => staff.purgeStaleTokens(), http.log),
    new PeriodicJob('erase-expired-replay-bodies', HOUR_MS, () => idempotency.eraseExpiredResponses(), http.log),
    new PeriodicJob('purge-launch-records', HOUR_MS, () => integration.purgeLaunchRecords(), http.log),
    new PeriodicJob('resolve-stale-pending-bets', STALE_SWEEP_MS, () => recovery.resolveStalePendingBets(), http.log),
    new PeriodicJob('feed-silence', FEED_SILENCE_CHECK_MS, () => producers.downSilent(), http.log),
  ];
}

/**
 * `bookmaker demo live`: the demo's live simulator as a feed producer in a process of its own, pushing to a running
 * service through the feed API with its producer key (src/seed/simulator-client.ts). Development and demos only.
 */
import { randomInt } from 'node:crypto';
import { exitCodeOf, UsageError, type Output, type StandaloneCommandSpec } from '../commands/definitions.ts';
import { randomSource } from '../seed/random.ts';
import { runSimulatorClient } from '../seed/simulator-client.ts';

type Values = Record<string, string | boolean | undefined>;

export const DEMO_LIVE: StandaloneCommandSpec = {
  words: ['demo', 'live'],
  synopsis: '[--url URL] [--ticks N] [--interval MS]',
  summary: 'run the live simulator (odds, suspensions, scores, results) as a feed producer until stopped',
  details: [
    'It prices the events of its producer through the feed API (docs/feed.md), from a process of its own:',
    '  --url URL       the running service (default http://127.0.0.1:3000)',
    '  --ticks N       stop after N ticks (default: until Ctrl-C)',
    '  --interval MS   between ticks (default 3000)',
    "Its producer key comes from BOOKMAKER_FEED_KEY (kept out of the process list): a platform administrator's",
    'POST /api/v1/admin/feed/producers/demo/key issues one (serve --demo-live does it for you).',
    'Prints { "tick", "messages", "outcomes" } per tick. Development and demos only.',
  ].join('\n'),
  options: { url: { type: 'string' }, ticks: { type: 'string' }, interval: { type: 'string' } },
  standalone: (values, out, env) => exitCodeOf(DEMO_LIVE, () => demoLive(values, out, env), { out }),
};

async function demoLive(values: Values, out: Output, env: NodeJS.ProcessEnv): Promise<void> {
  const key = env.BOOKMAKER_FEED_KEY;
  if (!key) {
    throw new UsageError(
      "set BOOKMAKER_FEED_KEY to the demo producer's key (POST /api/v1/admin/feed/producers/demo/key as a platform " +
        'administrator), or run "bookmaker serve --demo-live", which starts this simulator with a key of its own',
    );
  }
  const url = typeof values.url === 'string' ? values.url : 'http://127.0.0.1:3000';
  if (!URL.canParse(url)) throw new UsageError("--url must be the service's base URL, such as http://127.0.0.1:3000");
  const ticks = values.ticks === undefined ? undefined : positiveInteger('--ticks', values.ticks);
  const interval = values.interval === undefined ? 3_000 : positiveInteger('--interval', values.interval);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    out.progress(`bookmaker demo live: pricing through ${url} every ${interval} ms`);
    await runSimulatorClient({
      url,
      key,
      random: randomSource(randomInt(2 ** 31)),
      ...(ticks === undefined ? {} : { ticks }),
      pause: () => pause(interval, stop.signal),
      report: (tick) =>
        'error' in tick
          ? out.progress(`bookmaker demo live: tick ${tick.tick} failed (${tick.error}); trying again next tick`)
          : out.result(JSON.stringify(tick)),
    });
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
}

function positiveInteger(flag: string, value: string | boolean): number {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,8}$/.test(value)) {
    throw new UsageError(`${flag} must be a positive integer`);
  }
  return Number(value);
}

/** Waits `ms`; false when stopped meanwhile. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(true), ms);
    const stopped = () => done(false);
    signal.addEventListener('abort', stopped, { once: true });
    if (signal.aborted) done(false);
    function done(going: boolean) {
      clearTimeout(timer);
      signal.removeEventListener('abort', stopped);
      resolve(going);
    }
  });
}

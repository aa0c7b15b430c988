// The soak's command line: its options, their defaults and bounds, and the usage it prints.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

const USAGE = `usage: npm run soak -- [--seed N] [--bets N] [--restarts N] [--minutes M] [--json] [--keep]

  --seed N       the seed of every random choice (default: a random one, printed); the same seed replays the run
  --bets N       how many bet slips to place (default 3000): singles and accumulators
  --restarts N   how many times the service is killed with SIGKILL and started again (default 5)
  --minutes M    the bound on the whole run (default 15): placing stops at 60% of it, the drain at 100%
  --json         print the figures as one JSON object on stdout
  --keep         keep the data directory (and PostgreSQL databases) for inspection

Runs on embedded PGlite in a fresh temporary DATA_DIR, or on PostgreSQL in fresh databases beside DATABASE_URL's.
Exit code: 0 when nothing differs, 1 when a discrepancy was found, 2 for a usage error or a soak that could not run.`;

export interface Options {
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

/** The options of this run: --help prints the usage and exits 0, a usage error exits 2. */
export function readOptions(): Options {
  try {
    return options();
  } catch (error) {
    process.stderr.write(`soak: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
}

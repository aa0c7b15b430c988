import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ensurePrivateDir } from '../src/platform/data-dir.ts';
import { InstanceLockError, lockDataDir } from '../src/platform/db/instance-lock.ts';

/**
 * What the demo makes sure of before it starts anything: its ports free and its data directory fresh, each problem
 * said as a DemoError with what to do about it.
 */

export interface DemoPorts {
  /** The Bookmaker service: API, iframe sportsbook, SDK (3000). */
  sportsbook: number;
  /** The demo casino site (3100). */
  casino: number;
  /** The casino's production wallet (4000). */
  wallet: number;
  /** The casino's sandbox wallet (4001). */
  sandboxWallet: number;
}

/** A start-up problem the person can fix, said in one line with what to do. */
export class DemoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DemoError';
  }
}

/** The environment variable that sets each port in `npm run demo`. */
export const PORT_VARIABLES: Record<keyof DemoPorts, string> = {
  sportsbook: 'DEMO_SPORTSBOOK_PORT',
  casino: 'DEMO_CASINO_PORT',
  wallet: 'DEMO_WALLET_PORT',
  sandboxWallet: 'DEMO_SANDBOX_WALLET_PORT',
};

/** Where every program of the demo listens. */
export const HOST = '127.0.0.1';
/** The file that says a data directory is the demo's (the demo empties only its own). */
const MARKER = '.bookmaker-demo';

/** A busy port, said with the variable that moves it (also when the service finds its own taken). */
export function portProblem(name: keyof DemoPorts, port: number): string {
  const variable = PORT_VARIABLES[name];
  return (
    `port ${port} (the ${name === 'sandboxWallet' ? 'sandbox wallet' : name}) is already in use on ${HOST}: ` +
    `stop the program using it (another demo?), or choose another port with ${variable}=<port> npm run demo`
  );
}

/** Every fixed port is checked before anything starts, so a busy one is said with the variable that moves it. */
export async function ensurePortsFree(ports: DemoPorts): Promise<void> {
  const fixed = Object.entries(ports).filter(([, port]) => port !== 0) as Array<[keyof DemoPorts, number]>;
  const seen = new Map<number, keyof DemoPorts>();
  for (const [name, port] of fixed) {
    const other = seen.get(port);
    if (other) {
      throw new DemoError(`${PORT_VARIABLES[name]} and ${PORT_VARIABLES[other]} are both ${port}: give each its own`);
    }
    seen.set(port, name);
    const free = await new Promise<boolean>((done) => {
      const probe = createServer();
      probe.once('error', () => done(false));
      probe.listen({ port, host: HOST, exclusive: true }, () => probe.close(() => done(true)));
    });
    if (!free) throw new DemoError(portProblem(name, port));
  }
}

/**
 * The demo starts from scratch every time: its data directory is emptied first. Only a directory the demo made (it
 * holds a marker file) or an empty one is emptied, and never while a running server holds it. It is made again
 * private to this user (0700), as the service requires of its DATA_DIR.
 */
export async function freshDataDir(dataDir: string): Promise<void> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    if (!existsSync(join(dataDir, MARKER))) {
      throw new DemoError(
        `${dataDir} is not empty and was not made by the demo: the demo empties its data directory at every start, ` +
          'so point DEMO_DATA_DIR at a new or empty directory',
      );
    }
    try {
      const lock = await lockDataDir(dataDir, () => undefined);
      await lock.release();
    } catch (error) {
      if (!(error instanceof InstanceLockError)) throw error;
      throw new DemoError(
        `another demo (or Bookmaker server) is using ${dataDir}: stop it first, or give this one its own ` +
          'DEMO_DATA_DIR and ports',
      );
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
  ensurePrivateDir(dataDir, 'DEMO_DATA_DIR');
  writeFileSync(join(dataDir, MARKER), 'Made by `npm run demo`, which empties this directory at every start.\n', {
    mode: 0o600,
  });
}

/**
 * The whole demo in one process: the Bookmaker service on the embedded database with the live odds simulator, the
 * casino's two reference wallets, a seeded catalog, an aggregator-provisioned and activated client, and the demo
 * casino on its own origin. `startDemo()` is what `npm run demo` runs; browser tests start it on random ports.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { systemClock } from '../src/platform/clock.ts';
import { loadConfig } from '../src/platform/config.ts';
import { DOCS_PATH } from '../src/platform/http/openapi.ts';
import { seedDemoCatalog } from '../src/seed/demo-catalog.ts';
import { startServer, StartupError, type RunningServer } from '../src/server.ts';
import { startCasino, type Casino } from './casino.ts';
import type { Locale } from './casino-state.ts';
import { DEMO_PLAYERS } from './page.ts';
import { DemoError, ensurePortsFree, freshDataDir, HOST, portProblem, type DemoPorts } from './preflight.ts';
import {
  activateClient,
  authorizeAggregator,
  type ConsoleAccount,
  createClient,
  createConsoleAccounts,
  createStaff,
} from './provision.ts';
import { startWallet, type DemoWallet } from './wallet.ts';

export interface DemoOptions {
  /** Each port, or 0 for every one on a random free port (tests). */
  ports?: 0 | Partial<DemoPorts>;
  /** The embedded database and logs; wiped at every start (default: the project's data/demo). */
  dataDir?: string;
  /** Progress lines (default: stdout). */
  log?: (line: string) => void;
  /** The live odds simulator (default on); tests that need still odds turn it off (the markets then stay open). */
  live?: boolean;
}

export interface Demo {
  /** The page to open: the demo casino, e.g. http://127.0.0.1:3100 */
  casinoUrl: string;
  /** The sportsbook as the browser reaches it (another origin), e.g. http://localhost:3000 */
  sportsbookUrl: string;
  apiReferenceUrl: string;
  /** The staff console, and the accounts to sign in with (their first sign-in enrols an authenticator app). */
  consoleUrl: string;
  consoleAccounts: ConsoleAccount[];
  /** Where the service's log goes. */
  logFile: string;
  dataDir: string;
  clientId: string;
  /** The production tenant the casino integrates with, and its sandbox twin. */
  tenantId: string;
  sandboxTenantId: string;
  currency: string;
  /** Players the casino knows from the start, funded in the production wallet (the name is what to type). */
  players: Array<{ name: string; externalPlayerId: string; balance: number }>;
  /** A player of the sandbox wallet with money in it, to try the sandbox controls (`bookmaker sandbox tour`). */
  sandboxPlayer: string;
  /** Development credentials, for tests and curious developers: never print them in a real product. */
  secrets: {
    integrationApiKey: string;
    /** The sandbox environment's key: what a casino's engineers try the sandbox with. */
    sandboxIntegrationApiKey: string;
    aggregatorKey: string;
    adminToken: string;
    traderToken: string;
    operatorToken: string;
  };
  wallets: { production: DemoWalletInfo; sandbox: DemoWalletInfo };
  close(): Promise<void>;
}

interface DemoWalletInfo {
  url: string;
  controlToken: string;
}

const DEFAULT_PORTS: DemoPorts = { sportsbook: 3000, casino: 3100, wallet: 4000, sandboxWallet: 4001 };
const DEFAULT_DATA_DIR = join(import.meta.dirname, '..', 'data', 'demo');

const CURRENCY = 'BRL';
const LOCALE: Locale = 'en';
const BRAND = 'Aurora';
const VALIDATION_PLAYER = 'wallet-check';
/** The sandbox wallet's test player, funded like the demo's players. */
const SANDBOX_PLAYER = 'sandbox-tester';
/** R$ 1,000.00 for the demo players and every new name; R$ 10.00 for the players activation checks. */
const PLAYER_BALANCE = 100_000;

export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const ports: DemoPorts =
    options.ports === 0
      ? { sportsbook: 0, casino: 0, wallet: 0, sandboxWallet: 0 }
      : { ...DEFAULT_PORTS, ...options.ports };
  const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
  };

  try {
    await ensurePortsFree(ports);
    await freshDataDir(dataDir);
    log(`demo: fresh embedded database in ${dataDir}`);

    log('demo: starting the casino wallets (reference wallet, production and sandbox) ...');
    const production = await startWallet(ports.wallet, HOST);
    closers.push(() => production.close());
    const sandbox = await startWallet(ports.sandboxWallet, HOST);
    closers.push(() => sandbox.close());

    const live = options.live ?? true;
    log(`demo: starting the Bookmaker service (development, live odds simulator ${live ? 'on' : 'off'}) ...`);
    const logFile = join(dataDir, 'service.log');
    const logStream = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
    closers.push(async () => {
      logStream.end();
      await once(logStream, 'close').catch(() => undefined);
    });
    const config = loadConfig({
      APP_ENV: 'development',
      PORT: String(ports.sportsbook),
      HOST,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      INTEGRATION_SANDBOXES: 'true',
      // The demo's ports are its four programs' (DEMO_*_PORT): no metrics listener beside them.
      METRICS_PORT: 'off',
      // Without the simulator nobody prices the demo catalog: still odds, and open markets for the hour a test takes
      // (the silence rule would suspend them all after 20 s).
      ...(live ? {} : { FEED_SILENCE_SECONDS: '3600' }),
    });
    let server: RunningServer;
    try {
      server = await startServer(config, { demoLive: live, logStream, clock: systemClock });
    } catch (error) {
      if (error instanceof StartupError) throw new DemoError(portProblem('sportsbook', ports.sportsbook));
      throw error;
    }
    closers.push(() => server.stop());
    const api = server.url;
    const port = Number(new URL(api).port);
    // The browser reaches the sportsbook by another host name than the casino: two origins, as in production.
    const sportsbookUrl = `http://localhost:${port}`;

    log('demo: creating the staff accounts (platform administrator, trader) and logging them in with TOTP ...');
    const admin = await createStaff(server.app.services.staff, api, 'platform_admin');
    const trader = await createStaff(server.app.services.staff, api, 'trader');

    log('demo: seeding the demo catalog (three sports, seven leagues, thirty events) ...');
    const seeded = await seedDemoCatalog(server.app.services, systemClock);
    log(
      `demo:   ${seeded.events} events, ${seeded.markets} markets${live ? '; the live simulator moves them every 3 s' : ''}`,
    );

    log('demo: starting the demo casino ...');
    const casino: Casino = await startCasino(ports.casino, HOST);
    closers.push(() => casino.close());

    log('demo: the platform administrator registers and authorizes an aggregator ...');
    const walletOrigins = [production.url, sandbox.url].map((url) => new URL(url).origin);
    const aggregator = await authorizeAggregator(api, admin.token, {
      currencies: [CURRENCY],
      jurisdictions: ['BR'],
      territories: ['BR'],
      walletOrigins,
    });

    log('demo: provisioning the client through the aggregator API (CreateClient) ...');
    const client = await createClient(aggregator, {
      externalId: 'aurora-casino',
      name: `${BRAND} Casino`,
      legalName: `${BRAND} Entretenimento Ltda`,
      brandName: BRAND,
      currency: CURRENCY,
      jurisdiction: 'BR',
      locale: LOCALE,
      territories: ['BR'],
      embedOrigins: [casino.url],
      productionWalletUrl: production.url,
      sandboxWalletUrl: sandbox.url,
    });

    log('demo: installing the wallet secrets in both wallets and funding the demo players ...');
    await production.installSecret(client.production.walletSecret);
    await sandbox.installSecret(client.sandbox.walletSecret);
    await production.setPlayer(VALIDATION_PLAYER, 1_000, CURRENCY);
    await sandbox.setPlayer(VALIDATION_PLAYER, 1_000, CURRENCY);
    const players = DEMO_PLAYERS.map((name) => ({
      name,
      externalPlayerId: `casino-${name.toLowerCase()}`,
      balance: PLAYER_BALANCE,
    }));
    for (const player of players) await production.setPlayer(player.externalPlayerId, player.balance, CURRENCY);
    await sandbox.setPlayer(SANDBOX_PLAYER, PLAYER_BALANCE, CURRENCY);

    log('demo: activating the client (the service checks both wallets, then issues the integration keys) ...');
    const keys = await activateClient(aggregator, client.id, {
      production: VALIDATION_PLAYER,
      sandbox: VALIDATION_PLAYER,
    });
    const operator = await createStaff(server.app.services.staff, api, 'operator', {
      tenantId: client.production.tenantId,
    });
    log('demo: creating the staff console accounts (administrator, trader, operator) ...');
    const consoleAccounts = await createConsoleAccounts(server.app.services.staff, client.production.tenantId);

    casino.configure({
      sportsbookUrl,
      apiUrl: api,
      tenantId: keys.production.tenantId,
      integrationKey: keys.production.integrationApiKey,
      currency: CURRENCY,
      locale: LOCALE,
      brand: BRAND,
      wallet: production,
      traderToken: trader.token,
      operatorToken: operator.token,
      welcomeBalance: PLAYER_BALANCE,
    });

    return {
      casinoUrl: casino.url,
      sportsbookUrl,
      apiReferenceUrl: `${sportsbookUrl}${DOCS_PATH}`,
      consoleUrl: `${sportsbookUrl}/admin`,
      consoleAccounts,
      logFile,
      dataDir,
      clientId: client.id,
      tenantId: keys.production.tenantId,
      sandboxTenantId: keys.sandbox.tenantId,
      sandboxPlayer: SANDBOX_PLAYER,
      currency: CURRENCY,
      players,
      secrets: {
        integrationApiKey: keys.production.integrationApiKey,
        sandboxIntegrationApiKey: keys.sandbox.integrationApiKey,
        aggregatorKey: aggregator.key,
        adminToken: admin.token,
        traderToken: trader.token,
        operatorToken: operator.token,
      },
      wallets: {
        production: walletInfo(production),
        sandbox: walletInfo(sandbox),
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

const walletInfo = (wallet: DemoWallet): DemoWalletInfo => ({ url: wallet.url, controlToken: wallet.controlToken });

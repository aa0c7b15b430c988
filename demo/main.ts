// npm run demo: the service, the casino's wallets, a seeded catalog, a provisioned client and the demo casino, in one
// process. Ports: DEMO_SPORTSBOOK_PORT (3000), DEMO_CASINO_PORT (3100), DEMO_WALLET_PORT (4000),
// DEMO_SANDBOX_WALLET_PORT (4001); DEMO_DATA_DIR (data/demo, emptied at every start). Ctrl-C stops everything.
import { ConfigError } from '../src/platform/config.ts';
import { DataDirError } from '../src/platform/data-dir.ts';
import { InstanceLockError } from '../src/platform/db/instance-lock.ts';
import { DemoError, PORT_VARIABLES, type DemoPorts } from './preflight.ts';
import { startDemo } from './start.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);

function portsFromEnvironment(): Partial<DemoPorts> {
  const ports: Partial<DemoPorts> = {};
  for (const [name, variable] of Object.entries(PORT_VARIABLES) as Array<[keyof DemoPorts, string]>) {
    const raw = process.env[variable]?.trim();
    if (!raw) continue;
    if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
      throw new DemoError(`${variable} must be a port number from 1 to 65535, got "${raw}"`);
    }
    ports[name] = Number(raw);
  }
  return ports;
}

async function main(): Promise<number> {
  const started = Date.now();
  // The demo's files (database, log, development key) are for this user alone, as the service's are.
  process.umask(0o077);
  let demo;
  try {
    const dataDir = process.env.DEMO_DATA_DIR?.trim();
    demo = await startDemo({ ports: portsFromEnvironment(), ...(dataDir ? { dataDir } : {}), log: say });
  } catch (error) {
    if (
      error instanceof DemoError ||
      error instanceof InstanceLockError ||
      error instanceof ConfigError ||
      error instanceof DataDirError
    ) {
      process.stderr.write(`demo: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`demo: the demo could not start: ${(error as Error).stack ?? String(error)}\n`);
    process.stderr.write('demo: the service log may say more: data/demo/service.log (or DEMO_DATA_DIR)\n');
    return 1;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const names = demo.players.map((player) => player.name).join(', ');
  say('');
  say(`demo: ready in ${seconds} s`);
  say('');
  say(`  Open the demo casino:   ${demo.casinoUrl}`);
  say(`  The sportsbook:         ${demo.sportsbookUrl}/?tenant=${demo.tenantId}   (tenant ${demo.tenantId})`);
  say(`  API reference:          ${demo.apiReferenceUrl}`);
  say(`  Wallets (reference):    production ${demo.wallets.production.url}, sandbox ${demo.wallets.sandbox.url}`);
  say(`  Service log:            ${demo.logFile}`);
  say('');
  say(`  Staff console:          ${demo.consoleUrl}`);
  for (const account of demo.consoleAccounts) {
    say(`    ${account.role.padEnd(15)} ${account.email.padEnd(30)} password ${account.password}`);
  }
  say(
    '    The first sign-in of each shows a QR code: scan it with an authenticator app (any TOTP app), type its code.',
  );
  say('');
  say('  What to try:');
  say(`  1. Browse the sportsbook anonymously, then press "Log in" (any name; ${names} have R$ 1,000.00).`);
  say('  2. Add odds to the bet slip and place a single or an accumulator: watch bet_placed and balance_changed.');
  say('  3. Press Deposit in the sportsbook: the casino cashier credits its wallet, then refreshes the balance.');
  say('  4. In "Trader shortcut", settle the market of your bet: bet_settled arrives, the payout reaches the wallet.');
  say('  5. Open My Bets and cash out an open bet; switch the language in the casino header (EN, PT, ES); log out.');
  say('  6. Sign in to the staff console as the trader and settle a market from its dry run; as the operator, find');
  say('     the bet by the casino player id (casino-ana, ...) and see its payout under Financial delivery.');
  say('  7. In "Wallet fault switch", press "Refuse the next one" (one shot), then settle a winning bet: the wallet');
  say(
    '     refuses its payout (403 player_blocked), and the operator finds it held under Financial delivery to retry.',
  );
  say("  8. A casino engineer's first day: walk the sandbox's test player through every wallet movement kind,");
  say('     in another terminal:');
  say(
    `     BOOKMAKER_INTEGRATION_KEY=${demo.secrets.sandboxIntegrationApiKey} npx bookmaker sandbox tour ` +
      `--url ${demo.sportsbookUrl} --tenant ${demo.sandboxTenantId} --player ${demo.sandboxPlayer}`,
  );
  say('');
  say('  Ctrl-C stops everything (the next start begins from scratch).');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      say('demo: stopping at once');
      process.exit(130);
    }
    stopping = true;
    say(`\ndemo: stopping (${signal}): the casino, the service (finishing requests and deliveries), the wallets ...`);
    demo.close().then(
      () => {
        say('demo: stopped');
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`demo: stopping failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return 0;
}

const code = await main();
if (code !== 0) process.exit(code);

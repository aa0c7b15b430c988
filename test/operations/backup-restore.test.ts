import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { systemClock } from '../../src/platform/clock.ts';
import { openDatabase, type DatabaseTarget } from '../../src/platform/db/database.ts';
import { totpCode } from '../../src/staff/totp.ts';
import { request, TEST_SECRETS_KEY } from '../helpers/app.ts';
import { createPostgresDatabase, dropPostgresDatabase } from '../helpers/database.ts';
import { runCli, startServe, until, type ServeProcess } from '../helpers/process.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';

/**
 * The backups of docs/operations.md, done as the guide tells an operator: money moves, the server stops, the
 * database is backed up, destroyed and restored, and the ledger must come back row for row; then the restored server
 * signs staff in, answers for the bet and takes a new one (its secrets still decrypt, its sequences go on).
 */
const GUIDE = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'a long enough password';
const PLAYER = 'backup-player';
const OPENING_BALANCE = 100_00;
const STAKE = 20_00;
/** 20.00 at 2.10 pays 42.00. */
const PAYOUT = 42_00;
const AFTER_PAYOUT = OPENING_BALANCE - STAKE + PAYOUT;
/** Two starts of a real server, a dump and a restore: well under a minute; a hang fails instead of waiting. */
const TIMEOUT_MS = 180_000;

/**
 * The guide's commands, as functions of what differs between its deployment and this test's: the database's URL
 * and name, the backup file, DATA_DIR. The guide's lines are these applied to its own values (checked below), so
 * what is tested here is what the guide says, flag for flag.
 */
const operatorCommands = {
  dump: (url: string, file: string) => ['pg_dump', '--format=custom', `--file=${file}`, url],
  dropDatabase: (name: string) => ['dropdb', '--force', name],
  createDatabase: (name: string, owner: string) => ['createdb', '--template=template0', `--owner=${owner}`, name],
  restore: (url: string, file: string) => [
    'pg_restore',
    '--exit-on-error',
    '--single-transaction',
    '--no-owner',
    `--dbname=${url}`,
    file,
  ],
  copyDataDir: (file: string, dataDir: string) => [
    'tar',
    '--create',
    '--gzip',
    `--file=${file}`,
    `--directory=${dirname(dataDir)}`,
    basename(dataDir),
  ],
  moveAside: (dataDir: string) => ['mv', dataDir, `${dataDir}.damaged`],
  unpackDataDir: (file: string, dataDir: string) => [
    'tar',
    '--extract',
    '--gzip',
    '--same-permissions',
    `--file=${file}`,
    `--directory=${dirname(dataDir)}`,
  ],
};

/** The guide's deployment: its database and owner `bookmaker`, the shell's variables, the systemd unit's DATA_DIR. */
const GUIDE_LINES = [
  operatorCommands.dump('"$DATABASE_URL"', '"$BACKUP"'),
  operatorCommands.dropDatabase('bookmaker'),
  operatorCommands.createDatabase('bookmaker', 'bookmaker'),
  operatorCommands.restore('"$DATABASE_URL"', '"$BACKUP"'),
  operatorCommands.copyDataDir('"$BACKUP"', '/var/lib/bookmaker'),
  operatorCommands.moveAside('/var/lib/bookmaker'),
  operatorCommands.unpackDataDir('"$BACKUP"', '/var/lib/bookmaker'),
].map((words) => words.join(' '));

/** Runs one of the guide's commands; a failure fails the test with what the command said. */
function operatorRuns(command: string[], env: Record<string, string> = {}): void {
  const [program, ...args] = command as [string, ...string[]];
  const result = spawnSync(program, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  assert.equal(result.status, 0, `${command.join(' ')} failed: ${result.stderr || String(result.error)}`);
}

function installed(program: string): boolean {
  return spawnSync(program, ['--version']).status === 0;
}

/** The PostgreSQL server to try the procedure on: DATABASE_URL's, else a local one if it answers. */
async function postgresServer(): Promise<string | undefined> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const client = new pg.Client({ connectionString: LOCAL_POSTGRES, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return LOCAL_POSTGRES;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** dropdb and createdb connect as the guide says: with PostgreSQL's own variables, as a role that may create. */
function clientEnv(url: string): Record<string, string> {
  const parsed = new URL(url);
  return {
    PGHOST: parsed.hostname,
    PGPORT: parsed.port || '5432',
    PGUSER: decodeURIComponent(parsed.username) || 'postgres',
    ...(parsed.password ? { PGPASSWORD: decodeURIComponent(parsed.password) } : {}),
  };
}

async function publicTables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = 'public' order by 1",
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

interface MoneyState {
  admin: { email: string; totpSecret: string };
  betId: string;
  playerToken: string;
  /** A selection of a market left open, for a bet after the restore. */
  open: { id: string; odds: string };
}

/** A code is taken once: a second sign-in shows the next step's code, which the one-step drift allows. */
async function signIn(server: ServeProcess, admin: MoneyState['admin'], codeAt = new Date()): Promise<string> {
  const login = await request(server.url, 'POST', '/api/v1/admin/auth/login', {
    body: { email: admin.email, password: PASSWORD, totp: totpCode(admin.totpSecret, codeAt) },
  });
  assert.equal(login.status, 200, login.text);
  return login.body.token;
}

/**
 * Money that moved through a real server: a tenant on the reference wallet, a bet placed (its stake debited), its
 * market settled and the payout delivered; a second market left open. Leaves the server running.
 */
async function moveMoney(env: Record<string, string>, wallet: TestWallet): Promise<[ServeProcess, MoneyState]> {
  const created = await runCli(env, [
    'staff',
    'create',
    '--email',
    'admin@backup.test',
    '--password',
    PASSWORD,
    '--role',
    'platform_admin',
    '--enrol-now',
  ]);
  assert.equal(created.code, 0, created.stderr);
  const admin = JSON.parse(created.stdout);
  const server = await startServe(env);
  const token = await signIn(server, admin);
  const staff = async (path: string, body: unknown) => {
    const response = await request(server.url, 'POST', `/api/v1/admin${path}`, { token, body });
    assert.ok(response.status === 200 || response.status === 201, response.text);
    return response.body;
  };
  const tenant = await staff('/tenants', {
    name: 'Backup Casino',
    currency: 'BRL',
    locale: 'pt-BR',
    jurisdiction: 'BR',
    walletUrl: wallet.url,
  });
  wallet.setSecret(tenant.walletSecret);
  await wallet.addPlayer(PLAYER, OPENING_BALANCE);
  await staff('/trading/sports', { id: 'soccer', name: 'Soccer' });
  const { competition } = await staff('/trading/competitions', { sportId: 'soccer', name: 'Liga', country: 'BR' });
  const markets = [];
  for (const [home, away] of [
    ['Alpha', 'Beta'],
    ['Gamma', 'Delta'],
  ] as const) {
    const { event } = await staff('/trading/events', {
      competitionId: competition.id,
      home,
      away,
      startsAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const { market } = await staff(`/trading/events/${event.id}/markets`, {
      type: 'match_result',
      selections: [
        { name: home, outcome: 'home', odds: '2.10' },
        { name: 'Draw', outcome: 'draw', odds: '3.25' },
        { name: away, outcome: 'away', odds: '3.60' },
      ],
    });
    markets.push(market);
  }
  const [settled, open] = markets;
  const session = await request(server.url, 'POST', '/api/v1/integration/sessions', {
    body: { externalPlayerId: PLAYER },
    headers: { 'x-tenant-id': tenant.tenant.id, 'x-api-key': tenant.integrationApiKey },
  });
  assert.equal(session.status, 200, session.text);
  const home = settled.selections[0];
  const placed = await request(server.url, 'POST', '/api/v1/bets', {
    token: session.body.token,
    body: { requestId: 'backup-slip-1', stake: STAKE, legs: [{ selectionId: home.id, odds: home.odds }] },
  });
  assert.equal(placed.status, 201, placed.text);
  await staff(`/trading/markets/${settled.id}/settle`, {
    results: settled.selections.map((selection: { id: string; outcome: string }) => ({
      selectionId: selection.id,
      result: selection.outcome === 'home' ? 'won' : 'lost',
    })),
  });
  await until('the payout to reach the wallet', async () =>
    (await wallet.balanceOf(PLAYER)) === AFTER_PAYOUT ? true : undefined,
  );
  const state = { admin, betId: placed.body.bet.id, playerToken: session.body.token, open: open.selections[0] };
  return [server, state];
}

/** SIGTERM, as the service manager stops it: drained and closed, exit 0. */
async function stop(server: ServeProcess): Promise<void> {
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0, server.output());
}

/** The ledger as stored: every row of the money tables, in a fixed order. Read with the server stopped. */
async function ledgerRows(target: DatabaseTarget) {
  const handle = await openDatabase(target);
  try {
    const { db } = handle;
    return {
      bets: await db.selectFrom('bets').selectAll().orderBy('id').execute(),
      obligations: await db.selectFrom('wallet_obligations').selectAll().orderBy('id').execute(),
      history: await db.selectFrom('wallet_obligation_history').selectAll().orderBy('id').execute(),
      calls: await db.selectFrom('wallet_calls').selectAll().orderBy('id').execute(),
    };
  } finally {
    await handle.close();
  }
}

/** What moveMoney left: the bet won, its stake debit and its payout credit applied. */
function assertMoneyMoved(ledger: Awaited<ReturnType<typeof ledgerRows>>, betId: string): void {
  assert.deepEqual(
    ledger.bets.map((bet) => [bet.id, bet.status, bet.stake]),
    [[betId, 'won', STAKE]],
  );
  assert.deepEqual(
    ledger.obligations
      .toSorted((a, b) => a.sequence - b.sequence)
      .map((row) => [row.bet_id, row.endpoint, row.amount, row.status]),
    [
      [betId, 'debit', STAKE, 'applied'],
      [betId, 'credit', PAYOUT, 'applied'],
    ],
  );
}

/**
 * The restored server works on the restored data: staff sign in (their TOTP secrets decrypt), the player's session
 * and bet are there, and a new bet is debited by the wallet (the tenant's wallet secret decrypts and signs).
 */
async function assertServes(server: ServeProcess, state: MoneyState, wallet: TestWallet): Promise<void> {
  await signIn(server, state.admin, new Date(Date.now() + 30_000));
  const bet = await request(server.url, 'GET', `/api/v1/bets/${state.betId}`, { token: state.playerToken });
  assert.equal(bet.status, 200, bet.text);
  assert.equal(bet.body.bet.status, 'won');
  const placed = await request(server.url, 'POST', '/api/v1/bets', {
    token: state.playerToken,
    body: { requestId: 'backup-slip-2', stake: 5_00, legs: [{ selectionId: state.open.id, odds: state.open.odds }] },
  });
  assert.equal(placed.status, 201, placed.text);
  assert.equal(await wallet.balanceOf(PLAYER), AFTER_PAYOUT - 5_00);
}

describe('the operations guide', () => {
  it('gives the backup and restore commands this file runs, flag for flag', () => {
    const missing = GUIDE_LINES.filter((line) => !GUIDE.includes(line));
    assert.deepEqual(missing, []);
  });
});

describe('PostgreSQL: pg_dump, the database dropped and made again, pg_restore', () => {
  let server: string | undefined;
  let wallet: TestWallet;
  let work: string;
  before(async () => {
    server = await postgresServer();
    wallet = await startTestWallet(systemClock);
    work = mkdtempSync(join(tmpdir(), 'bookmaker-backup-'));
  });
  after(async () => {
    await wallet.close();
    rmSync(work, { recursive: true, force: true });
  });

  it(
    'brings back every ledger row, and the restored server answers for the bet',
    { timeout: TIMEOUT_MS },
    async (context) => {
      if (!installed('pg_dump') || !installed('pg_restore')) {
        return context.skip(
          "pg_dump or pg_restore is not installed (Debian: apt install postgresql-client), so the guide's " +
            'PostgreSQL backup cannot be tried',
        );
      }
      if (!server) return context.skip(`no PostgreSQL: DATABASE_URL is unset and nothing answers at ${LOCAL_POSTGRES}`);
      const databaseUrl = await createPostgresDatabase(server);
      const name = new URL(databaseUrl).pathname.slice(1);
      const owner = decodeURIComponent(new URL(server).username) || 'postgres';
      const env = {
        APP_ENV: 'development',
        SECRETS_KEY: TEST_SECRETS_KEY,
        DATABASE_URL: databaseUrl,
        DATA_DIR: mkdtempSync(join(work, 'data-')),
        PORT: '0',
        METRICS_PORT: '0',
        LOG_LEVEL: 'warn',
      };
      const backup = join(work, 'bookmaker.dump');
      try {
        const [running, state] = await moveMoney(env, wallet);
        await stop(running);
        const before = await ledgerRows({ databaseUrl });
        assertMoneyMoved(before, state.betId);

        operatorRuns(operatorCommands.dump(databaseUrl, backup));
        operatorRuns(operatorCommands.dropDatabase(name), clientEnv(server));
        operatorRuns(operatorCommands.createDatabase(name, owner), clientEnv(server));
        assert.deepEqual(await publicTables(databaseUrl), [], 'the database was destroyed and made again empty');
        operatorRuns(operatorCommands.restore(databaseUrl, backup));

        assert.deepEqual(await ledgerRows({ databaseUrl }), before);
        const restarted = await startServe(env);
        try {
          await assertServes(restarted, state, wallet);
        } finally {
          await stop(restarted);
        }
      } finally {
        await dropPostgresDatabase(databaseUrl);
      }
    },
  );
});

describe('the embedded database: DATA_DIR copied while stopped, removed, copied back', () => {
  let wallet: TestWallet;
  let work: string;
  before(async () => {
    wallet = await startTestWallet(systemClock);
    work = mkdtempSync(join(tmpdir(), 'bookmaker-backup-'));
  });
  after(async () => {
    await wallet.close();
    rmSync(work, { recursive: true, force: true });
  });

  it(
    'brings back every ledger row and the development key, and the restored server answers for the bet',
    { timeout: TIMEOUT_MS },
    async () => {
      const dataDir = join(work, 'bookmaker');
      // No SECRETS_KEY: the development key is made in DATA_DIR, and must come back with the copy.
      const env = { APP_ENV: 'development', DATA_DIR: dataDir, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'warn' };
      const database = { dataDir: join(dataDir, 'pglite') };
      const backup = join(work, 'bookmaker-data.tar.gz');

      const [running, state] = await moveMoney(env, wallet);
      await stop(running);
      const before = await ledgerRows(database);
      assertMoneyMoved(before, state.betId);
      const key = readFileSync(join(dataDir, 'secrets.key'), 'utf8');

      operatorRuns(operatorCommands.copyDataDir(backup, dataDir));
      operatorRuns(operatorCommands.moveAside(dataDir));
      assert.equal(existsSync(dataDir), false);
      operatorRuns(operatorCommands.unpackDataDir(backup, dataDir));

      assert.equal(statSync(dataDir).mode & 0o777, 0o700);
      assert.equal(readFileSync(join(dataDir, 'secrets.key'), 'utf8'), key);
      assert.deepEqual(await ledgerRows(database), before);
      const restarted = await startServe(env);
      try {
        await assertServes(restarted, state, wallet);
      } finally {
        await stop(restarted);
      }
    },
  );
});

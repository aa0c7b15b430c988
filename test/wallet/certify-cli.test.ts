import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseCommandLine } from '../../src/commands/definitions.ts';
import { runWalletCertify, WALLET_CERTIFY } from '../../src/cli/wallet-certify.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { createClientBody, setUpAggregator, type AggregatorFixture } from '../helpers/aggregator.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { runCli, until } from '../helpers/process.ts';
import { startTestWallet, startWalletPair, type TestWallet, type WalletPair } from '../helpers/wallet.ts';

/**
 * `bookmaker wallet certify` as a partner runs it: a process with the package alone. The environment has no
 * configuration a server would need (production with no SECRETS_KEY would stop any other command), so a run
 * proves that certification reads neither configuration nor database.
 */
const NO_SERVER_CONFIGURATION = { APP_ENV: 'production', SECRETS_KEY: '', DATA_DIR: '/nonexistent/bookmaker' };
/** The reference wallet's launcher, as `npm run wallet` starts it. */
const WALLET = join(import.meta.dirname, '..', '..', 'reference-wallet', 'main.js');

let w: TestWallet;
let n = 0;
before(async () => {
  w = await startTestWallet(systemClock);
});
after(() => w.close());

async function players() {
  n += 1;
  await w.addPlayer(`funded-${n}`, 20_000);
  await w.addPlayer(`empty-${n}`, 0);
  await w.addPlayer(`blocked-${n}`, 1_000, 'BRL', true);
  return { funded: `funded-${n}`, empty: `empty-${n}`, blocked: `blocked-${n}` };
}

const certify = (args: string[], env: Record<string, string> = {}) =>
  runCli({ ...NO_SERVER_CONFIGURATION, ...env }, ['wallet', 'certify', ...args]);

async function walletArgs(extra: string[] = []) {
  const { funded, empty, blocked } = await players();
  return {
    funded,
    args: [
      ...['--url', w.url, '--currency', 'BRL', '--player', funded, '--player-empty', empty],
      ...['--player-blocked', blocked, ...extra],
    ],
  };
}

/** The command in this process, from the command line main.ts would have parsed. */
async function certifyHere(args: string[], env: Record<string, string> = {}) {
  const run = { code: 0, stdout: '', stderr: '' };
  const { values } = parseCommandLine([WALLET_CERTIFY], ['wallet', 'certify', ...args]);
  run.code = await runWalletCertify(
    values,
    { result: (line) => (run.stdout += `${line}\n`), progress: (line) => (run.stderr += `${line}\n`) },
    env,
  );
  return run;
}

const progressLines = (stderr: string) =>
  stderr.split('\n').filter((line) => /^bookmaker wallet certify: \[/.test(line));

describe('bookmaker wallet certify', () => {
  it('certifies the reference wallet: the report on stdout, a progress line per rule on stderr, exit 0', async () => {
    const { funded, args } = await walletArgs(['--sandbox-wallet']);
    const run = await certify(args, { BOOKMAKER_WALLET_SECRET: w.secret });
    assert.equal(run.code, 0, run.stderr);
    const progress = progressLines(run.stderr);
    assert.equal(progress.length, 27);
    assert.match(progress[0]!, /^bookmaker wallet certify: \[ 1\/27\] PASS balance\.shape \(1 call, \d+ ms\)$/);
    assert.match(run.stderr, /\] PASS errors\.blocked-player \(4 calls, \d+ ms\)\n/);
    assert.match(
      run.stderr,
      /certifying http:\/\/127\.0\.0\.1:\d+: sandbox wallet by the word of the person who ran it/,
    );
    assert.match(run.stderr, /bookmaker wallet certify: certified: 27 of 27 rules passed, 0 failed, 0 skipped\n$/);
    assert.match(run.stdout, /^Wallet certification \S+ \(bookmaker \d+\.\d+\.\d+\)\n/);
    assert.match(run.stdout, /^PASS {2}idempotency\.concurrent: /m);
    assert.match(run.stdout, /^Result: {2}CERTIFIED: 27 of 27 rules passed, 0 failed, 0 skipped\n$/m);
    assert.ok(!(run.stdout + run.stderr).includes(w.secret), 'the secret is never printed');
    assert.equal(await w.balanceOf(funded), 20_000);
  });

  it('--json prints the report as JSON; --junit writes JUnit XML; a failed rule exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'certify-'));
    const junit = join(dir, 'wallet.xml');
    w.fault({ mode: 'refuse', endpoint: 'credit' });
    const { funded, args } = await walletArgs(['--sandbox-wallet', '--json', '--junit', junit, '--secret', w.secret]);
    const run = await certify(args);
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.result, 'failed');
    assert.deepEqual(
      report.rules.filter((rule: any) => rule.status === 'fail').map((rule: any) => rule.id),
      ['movement.debit-then-credit'],
    );
    assert.match(
      run.stderr,
      /\] FAIL movement\.debit-then-credit \(\d+ calls, \d+ ms\): payout: expected it applied, got refused \(400 refused_by_test\)/,
    );
    assert.match(run.stderr, /JUnit report written to /);
    assert.match(run.stderr, /failed: 26 of 27 rules passed, 1 failed, 0 skipped\n$/);
    const xml = readFileSync(junit, 'utf8');
    assert.match(
      xml,
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="bookmaker wallet certify" tests="27" failures="1"/,
    );
    assert.equal(xml.match(/<testcase /g)?.length, 27);
    assert.match(xml, /<property name="blockedPlayer" value="blocked-\d+"\/>/);
    assert.match(
      xml,
      /<failure message="payout: expected it applied, got refused \(400 refused_by_test\)" type="rule_failed">/,
    );
    // The secret given on the command line appears in no output, the file included.
    for (const output of [run.stdout, run.stderr, xml]) assert.ok(!output.includes(w.secret));
    assert.equal(await w.balanceOf(funded), 20_000, 'the refused payout was compensated');
  });

  it('without --player-empty and --player-blocked their rules are skipped, exit 0, the result incomplete', async () => {
    const { funded } = await players();
    const run = await certify(['--url', w.url, '--currency', 'BRL', '--player', funded, '--sandbox-wallet', '--json'], {
      BOOKMAKER_WALLET_SECRET: w.secret,
    });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.result, 'incomplete');
    assert.equal(report.summary.skipped, 4);
    assert.match(run.stderr, /\] SKIP debit\.insufficient-stake \(0 calls, \d+ ms\): no --player-empty given/);
    assert.match(run.stderr, /\] SKIP errors\.blocked-player \(0 calls, \d+ ms\): no --player-blocked given/);
  });

  it('as docs/certification.md runs it: the reference wallet with WALLET_PLAYERS, a blocked player among them', async () => {
    const wallet = spawn(process.execPath, [WALLET], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        WALLET_PORT: '0',
        WALLET_SECRET: 'bm_whsec_test',
        WALLET_PLAYERS: 'cert-funded:100000:BRL,cert-empty:0:BRL,cert-blocked:0:BRL:blocked',
      },
    });
    let stdout = '';
    wallet.stdout.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => wallet.on('close', resolve));
    try {
      const started = await until('the wallet to listen', async () => (stdout.includes('\n') ? stdout : undefined));
      const url = (JSON.parse(started) as { wallet: string }).wallet;
      const run = await certify(
        [
          ...['--url', url, '--currency', 'BRL', '--player', 'cert-funded', '--player-empty', 'cert-empty'],
          ...['--player-blocked', 'cert-blocked', '--sandbox-wallet', '--json'],
        ],
        { BOOKMAKER_WALLET_SECRET: 'bm_whsec_test' },
      );
      assert.equal(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout);
      assert.equal(report.result, 'certified');
      const blocked = report.rules.find((rule: any) => rule.id === 'errors.blocked-player');
      assert.deepEqual(
        [blocked.status, blocked.detail],
        ['pass', 'refused with 403 player_blocked; the balance stayed at 0'],
      );
    } finally {
      wallet.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });

  it('a wallet URL the transport refuses is not called: exit 1, one line', async () => {
    const run = await certify(
      ['--url', 'https://wallet.invalid', '--currency', 'BRL', '--player', 'p', '--sandbox-wallet'],
      { BOOKMAKER_WALLET_SECRET: w.secret },
    );
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /not started: https:\/\/wallet\.invalid cannot be called: cannot resolve wallet\.invalid/);
  });

  describe('command-line mistakes exit 2 with the usage', () => {
    const base = () => ['--url', w.url, '--currency', 'BRL', '--player', 'p1', '--secret', 's', '--sandbox-wallet'];
    const without = (flag: string, takesValue = true) => {
      const args = base();
      const index = args.indexOf(flag);
      args.splice(index, takesValue ? 2 : 1);
      return args;
    };
    const cases: Array<[string, () => string[], RegExp, Record<string, string>?]> = [
      ['no --url', () => without('--url'), /missing --url/],
      ['no --player', () => without('--player'), /missing --player/],
      ['no secret', () => without('--secret'), /missing --secret \(or set BOOKMAKER_WALLET_SECRET\)/],
      ['a URL that is not one', () => [...without('--url'), '--url', 'wallet'], /--url "wallet": not an absolute URL/],
      [
        'an ftp URL',
        () => [...without('--url'), '--url', 'ftp://wallet.example'],
        /--url "ftp:\/\/wallet\.example": must be https/,
      ],
      [
        'http to a public host',
        () => [...without('--url'), '--url', 'http://wallet.example'],
        /--url "http:\/\/wallet\.example": must be https/,
      ],
      [
        'a private address',
        () => [...without('--url'), '--url', 'https://10.1.2.3'],
        /the address 10\.1\.2\.3 is in a special range \(private\)/,
      ],
      [
        'a URL with a query',
        () => [...without('--url'), '--url', 'https://w.example/?a=1'],
        /a query or fragment is not allowed/,
      ],
      [
        'an unknown currency',
        () => [...without('--currency'), '--currency', 'XYZ'],
        /--currency must be one of BRL, USD, EUR/,
      ],
      ['a lower-case currency', () => [...without('--currency'), '--currency', 'brl'], /--currency must be one of/],
      [
        'a timeout above the contract',
        () => [...base(), '--timeout-ms', '5001'],
        /--timeout-ms must be an integer from 1 to 5000/,
      ],
      ['a timeout that is not a number', () => [...base(), '--timeout-ms', '1s'], /--timeout-ms must be an integer/],
      ['the same player twice', () => [...base(), '--player-empty', 'p1'], /--player-empty must be another player/],
      [
        'the funded player as the blocked one',
        () => [...base(), '--player-blocked', 'p1'],
        /--player-blocked must be another player than --player and --player-empty/,
      ],
      [
        'the empty player as the blocked one',
        () => [...base(), '--player-empty', 'p2', '--player-blocked', 'p2'],
        /--player-blocked must be another player/,
      ],
      [
        'no word on the environment',
        () => without('--sandbox-wallet', false),
        /say how the wallet is known to be a sandbox: --client ID --bookmaker URL .* or --sandbox-wallet/,
      ],
      ['--client without --bookmaker', () => [...base(), '--client', 'cl_1'], /--client and --bookmaker go together/],
      [
        '--client without the aggregator key',
        () => [...base(), '--client', 'cl_1', '--bookmaker', 'https://api.example'],
        /--client needs BOOKMAKER_AGGREGATOR_KEY/,
      ],
      [
        'a Bookmaker URL in plain http',
        () => [...base(), '--client', 'cl_1', '--bookmaker', 'http://api.example'],
        /--bookmaker must be https/,
        { BOOKMAKER_AGGREGATOR_KEY: 'bm_agg_x' },
      ],
      ['an unknown flag', () => [...base(), '--production'], /unknown option '--production'/],
    ];
    // The flags main.ts parses are checked through a process; the values the command checks itself, in this one.
    const parsedByMain = new Set(['no --url', 'no --player', 'an unknown flag']);
    for (const [name, args, message, env] of cases) {
      it(name, async () => {
        const received = w.wallet.received.length;
        const run = parsedByMain.has(name) ? await certify(args(), env) : await certifyHere(args(), env);
        assert.equal(run.code, 2, run.stderr);
        assert.equal(run.stdout, '');
        assert.match(run.stderr, message);
        assert.match(run.stderr, /^bookmaker: /);
        assert.match(
          run.stderr,
          /Usage: bookmaker wallet certify --url U --secret S --currency C --player P \[flags\]/,
        );
        assert.equal(w.wallet.received.length, received, 'nothing was sent to the wallet');
      });
    }
  });

  it('help lists it among the commands, and explains its flags', async () => {
    const help = await certify(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: bookmaker wallet certify --url U --secret S --currency C --player P \[flags\]/);
    assert.match(help.stdout, /--sandbox-wallet/);
    const all = await runCli({}, ['help']);
    assert.match(
      all.stdout,
      /wallet certify --url U --secret S --currency C --player P \[flags\] +run the wallet contract/,
    );
    const group = await runCli({}, ['wallet']);
    assert.equal(group.code, 2);
    assert.match(group.stderr, /^bookmaker: wallet needs a command/);
  });
});

describe('bookmaker wallet certify --client: the sandbox confirmed with Bookmaker', () => {
  let t: TestApp;
  let pair: WalletPair;
  let aggregator: AggregatorFixture;
  let clientId: string;
  let sandboxTenant: string;
  before(async () => {
    t = await startTestApp();
    pair = await startWalletPair(systemClock);
    aggregator = await setUpAggregator(t, pair, { scopes: ['clients:read', 'clients:create'] });
    const created = await aggregator.call('POST', '/clients', createClientBody(pair));
    assert.equal(created.status, 201, created.text);
    clientId = created.body.id;
    sandboxTenant = created.body.sandbox.tenantId;
    pair.sandbox.setSecret(created.body.sandbox.walletSecret);
    pair.production.setSecret(created.body.production.walletSecret);
    await pair.sandbox.addPlayer('sandbox-funded', 10_000);
    await pair.production.addPlayer('real-player', 10_000);
  });
  after(async () => {
    await pair.close();
    await t.close();
  });

  const confirmArgs = (url: string, currency = 'BRL') => [
    '--url',
    url,
    '--currency',
    currency,
    '--client',
    clientId,
    '--bookmaker',
    t.url,
    '--json',
  ];

  it("runs against the client's sandbox wallet, and the report names the client and tenant", async () => {
    const run = await certify([...confirmArgs(pair.sandbox.url), '--player', 'sandbox-funded'], {
      BOOKMAKER_WALLET_SECRET: pair.sandbox.secret,
      BOOKMAKER_AGGREGATOR_KEY: aggregator.key,
    });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(report.target, {
      environment: 'sandbox',
      verifiedBy: 'bookmaker',
      bookmakerUrl: t.url,
      clientId,
      tenantId: sandboxTenant,
    });
    assert.match(sandboxTenant, /-sandbox$/);
    assert.match(
      run.stderr,
      new RegExp(`certifying .*: sandbox wallet of client ${clientId} \\(tenant ${sandboxTenant}\\)`),
    );
    for (const secret of [pair.sandbox.secret, aggregator.key]) assert.ok(!(run.stdout + run.stderr).includes(secret));
  });

  it('refuses the production wallet of the client: exit 1, and the production wallet sees no call', async () => {
    const run = await certify([...confirmArgs(pair.production.url), '--player', 'real-player'], {
      BOOKMAKER_WALLET_SECRET: pair.production.secret,
      BOOKMAKER_AGGREGATOR_KEY: aggregator.key,
    });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /not started: http:\/\/127\.0\.0\.1:\d+ is the PRODUCTION wallet of client /);
    assert.equal(pair.production.wallet.received.length, 0);
    assert.equal(await pair.production.balanceOf('real-player'), 10_000);
  });

  it('refuses a URL that is not the sandbox wallet, another currency, an unknown client or a bad key', async () => {
    const env = { BOOKMAKER_WALLET_SECRET: w.secret, BOOKMAKER_AGGREGATOR_KEY: aggregator.key };
    const received = w.wallet.received.length;
    const sandboxReceived = pair.sandbox.wallet.received.length;
    const other = await certify([...confirmArgs(w.url), '--player', 'p'], env);
    assert.equal(other.code, 1);
    assert.match(other.stderr, /is not the sandbox wallet of client cl_\S+, which is http:\/\/127\.0\.0\.1:\d+/);
    const currency = await certify([...confirmArgs(pair.sandbox.url, 'USD'), '--player', 'p'], env);
    assert.equal(currency.code, 1);
    assert.match(currency.stderr, /works in BRL, not USD: give --currency BRL/);
    const unknown = await certify(
      ['--url', pair.sandbox.url, '--currency', 'BRL', '--player', 'p', '--client', 'cl_nope', '--bookmaker', t.url],
      env,
    );
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Bookmaker refused to show client cl_nope \(404 not_found/);
    const badKey = await certify([...confirmArgs(pair.sandbox.url), '--player', 'p'], {
      ...env,
      BOOKMAKER_AGGREGATOR_KEY: 'bm_agg_not_a_key',
    });
    assert.equal(badKey.code, 1);
    assert.match(badKey.stderr, /\(401 unauthorized/);
    assert.ok(!badKey.stderr.includes('bm_agg_not_a_key'));
    assert.equal(w.wallet.received.length, received);
    assert.equal(pair.sandbox.wallet.received.length, sandboxReceived, 'nothing was sent to a wallet');
  });
});

/**
 * `bookmaker wallet certify`: the wallet contract run against a partner's sandbox wallet (docs/certification.md).
 * It needs no database and no configuration: a partner runs it on its own machine or in its CI with the package
 * alone. The report goes to stdout (text or --json), a progress line per rule to stderr, JUnit XML to --junit.
 */
import { writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { systemClock } from '../platform/clock.ts';
import { AppError } from '../platform/errors.ts';
import { bareHostname, checkedWalletUrl, specialAddressRange } from '../platform/urls.ts';
import { Currency } from '../tenants/schemas.ts';
import {
  describeTarget,
  progressLine,
  renderJunit,
  renderText,
  type SandboxTarget,
} from '../wallet/certification/report.ts';
import { certifyWallet, DestinationRefused } from '../wallet/certification/runner.ts';
import { confirmSandboxWallet, SandboxNotConfirmed } from '../wallet/certification/target.ts';
import { commandHelp, UsageError, type Output, type StandaloneCommandSpec } from '../commands/definitions.ts';

/** The contract's wallet timeout ("Limits": 5 s per attempt); certification may be stricter, never looser. */
const CONTRACT_TIMEOUT_MS = 5_000;
const MAX_PLAYER_ID = 128;

export const WALLET_CERTIFY: StandaloneCommandSpec = {
  words: ['wallet', 'certify'],
  synopsis: '--url U --secret S --currency C --player P [flags]',
  summary: "run the wallet contract against a casino's sandbox wallet and report every rule",
  details: [
    'Needs no database: it calls the wallet only (and Bookmaker, with --client). Flags:',
    '  --url U               the sandbox wallet base URL (https on port 443; http and any port only on a loopback host)',
    '  --secret S            the sandbox wallet secret (or set BOOKMAKER_WALLET_SECRET, kept out of the process list)',
    `  --currency C          the environment's currency: ${Currency.enum.join(', ')}`,
    '  --player P            a funded test player (at least 200 minor units); its balance is left as found',
    '  --player-empty E      a test player with a zero balance, for the insufficient-funds rules (skipped without it)',
    '  --player-blocked B    a test player blocked in the wallet, for the player_blocked rule (skipped without it)',
    '  --client ID --bookmaker URL',
    '                        confirm with Bookmaker that U is the sandbox wallet of client ID (needs',
    '                        BOOKMAKER_AGGREGATOR_KEY, an aggregator key with clients:read)',
    '  --sandbox-wallet      or: run on your word that U is a sandbox wallet (the report says it was not confirmed)',
    '  --json                print the report as JSON (one line) instead of text',
    '  --junit FILE          also write the report as JUnit XML',
    `  --timeout-ms MS       per call, 1-${CONTRACT_TIMEOUT_MS} (default ${CONTRACT_TIMEOUT_MS}, the contract's)`,
    '',
    'Exit code: 0 when no rule failed (skipped rules are reported as skipped), 1 when a rule failed or the run could',
    'not start (the wallet is not a confirmed sandbox, its URL cannot be called), 2 for a command-line mistake.',
    '',
    'Example:',
    '  BOOKMAKER_WALLET_SECRET=bm_whsec_… npx bookmaker wallet certify --url https://sandbox-wallet.casino.example \\',
    '    --currency BRL --player cert-funded --player-empty cert-empty --player-blocked cert-blocked \\',
    '    --sandbox-wallet --junit wallet.xml',
  ].join('\n'),
  options: {
    url: { type: 'string' },
    secret: { type: 'string' },
    currency: { type: 'string' },
    player: { type: 'string' },
    'player-empty': { type: 'string' },
    'player-blocked': { type: 'string' },
    client: { type: 'string' },
    bookmaker: { type: 'string' },
    'sandbox-wallet': { type: 'boolean' },
    json: { type: 'boolean' },
    junit: { type: 'string' },
    'timeout-ms': { type: 'string' },
  },
  required: ['url', 'currency', 'player'],
  standalone: (values, out, env) => runWalletCertify(values, out, env),
};

type Values = Record<string, string | boolean | undefined>;

interface Settings {
  walletUrl: string;
  secret: string;
  currency: string;
  player: string;
  emptyPlayer: string | undefined;
  blockedPlayer: string | undefined;
  timeoutMs: number;
  json: boolean;
  junit: string | undefined;
  confirm: { bookmakerUrl: string; clientId: string; aggregatorKey: string } | null;
}

/** Runs the command; resolves with its exit code. */
export async function runWalletCertify(values: Values, out: Output, env: NodeJS.ProcessEnv): Promise<number> {
  let settings: Settings;
  try {
    settings = settingsOf(values, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    out.progress(`bookmaker: ${error.message}\n\n${commandHelp(WALLET_CERTIFY).trimEnd()}`);
    return 2;
  }
  const say = (line: string) => out.progress(`bookmaker wallet certify: ${line}`);
  let target: SandboxTarget = { environment: 'sandbox', verifiedBy: 'operator_assertion' };
  try {
    if (settings.confirm) {
      say(`asking ${settings.confirm.bookmakerUrl} whether ${settings.walletUrl} is a sandbox wallet`);
      target = await confirmSandboxWallet({
        ...settings.confirm,
        walletUrl: settings.walletUrl,
        currency: settings.currency,
      });
    }
    say(`certifying ${settings.walletUrl}: ${describeTarget(target)}`);
    const report = await certifyWallet({
      walletUrl: settings.walletUrl,
      secret: settings.secret,
      currency: settings.currency,
      player: settings.player,
      emptyPlayer: settings.emptyPlayer,
      blockedPlayer: settings.blockedPlayer,
      timeoutMs: settings.timeoutMs,
      target,
      clock: systemClock,
      onRule: (rule, position, total) => say(progressLine(rule, position, total)),
    });
    out.result(settings.json ? JSON.stringify(report) : renderText(report).trimEnd());
    if (settings.junit) {
      writeFileSync(settings.junit, renderJunit(report));
      say(`JUnit report written to ${settings.junit}`);
    }
    const { passed, failed, skipped, rules } = report.summary;
    say(`${report.result}: ${passed} of ${rules} rules passed, ${failed} failed, ${skipped} skipped`);
    return report.result === 'failed' ? 1 : 0;
  } catch (error) {
    if (error instanceof SandboxNotConfirmed) {
      say(`not started: ${error.message}`);
      return 1;
    }
    if (error instanceof DestinationRefused) {
      say(`not started: ${settings.walletUrl} cannot be called: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function settingsOf(values: Values, env: NodeJS.ProcessEnv): Settings {
  const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
  let walletUrl: string;
  try {
    walletUrl = checkedWalletUrl('--url', text('url')!, { allowLoopback: true });
  } catch (error) {
    if (error instanceof AppError) throw new UsageError(error.message.replace(/\.$/, ''));
    throw error;
  }
  const url = new URL(walletUrl);
  if (!isLoopback(url) && url.port !== '') {
    throw new UsageError(
      `--url "${walletUrl}": port ${url.port}: Bookmaker calls sandbox and production wallets on port 443 only`,
    );
  }
  const currency = text('currency')!;
  const currencies: readonly string[] = Currency.enum;
  if (!currencies.includes(currency)) {
    throw new UsageError(`--currency must be one of ${currencies.join(', ')}; got "${currency}"`);
  }
  const player = playerId('--player', text('player')!);
  const emptyPlayer =
    text('player-empty') === undefined ? undefined : playerId('--player-empty', text('player-empty')!);
  if (emptyPlayer === player) throw new UsageError('--player-empty must be another player than --player');
  const blockedPlayer =
    text('player-blocked') === undefined ? undefined : playerId('--player-blocked', text('player-blocked')!);
  if (blockedPlayer !== undefined && (blockedPlayer === player || blockedPlayer === emptyPlayer)) {
    throw new UsageError('--player-blocked must be another player than --player and --player-empty');
  }
  const secret = text('secret') ?? env.BOOKMAKER_WALLET_SECRET;
  if (!secret) throw new UsageError('missing --secret (or set BOOKMAKER_WALLET_SECRET)');
  const timeout = text('timeout-ms');
  if (timeout !== undefined && (!/^[1-9][0-9]{0,3}$/.test(timeout) || Number(timeout) > CONTRACT_TIMEOUT_MS)) {
    throw new UsageError(`--timeout-ms must be an integer from 1 to ${CONTRACT_TIMEOUT_MS} (the contract's timeout)`);
  }
  const junit = text('junit');
  if (values.junit !== undefined && !junit) throw new UsageError('--junit needs a file name');
  return {
    walletUrl,
    secret,
    currency,
    player,
    emptyPlayer,
    blockedPlayer,
    timeoutMs: timeout === undefined ? CONTRACT_TIMEOUT_MS : Number(timeout),
    json: values.json === true,
    junit,
    confirm: confirmation(values, env),
  };
}

/** A loopback host: a wallet run on this machine, for trying certification before the real sandbox. */
export function isLoopback(url: URL): boolean {
  const host = bareHostname(url);
  return host === 'localhost' || (isIP(host) !== 0 && specialAddressRange(host) === 'loopback');
}

function playerId(flag: string, value: string): string {
  if (value.length > MAX_PLAYER_ID || value.trim() !== value) {
    throw new UsageError(`${flag} must be a player id of 1-${MAX_PLAYER_ID} characters without surrounding spaces`);
  }
  return value;
}

/** How the wallet is known to be a sandbox's: confirmed with Bookmaker, or the person's word (null). */
function confirmation(values: Values, env: NodeJS.ProcessEnv): Settings['confirm'] {
  const clientId = typeof values.client === 'string' ? values.client : undefined;
  const bookmaker = typeof values.bookmaker === 'string' ? values.bookmaker : undefined;
  if (clientId === undefined && bookmaker === undefined) {
    if (values['sandbox-wallet'] === true) return null;
    throw new UsageError(
      'say how the wallet is known to be a sandbox: --client ID --bookmaker URL (confirmed with Bookmaker), or ' +
        '--sandbox-wallet (on your word); certification moves money and never runs against a production wallet',
    );
  }
  if (!clientId || !bookmaker) throw new UsageError('--client and --bookmaker go together');
  let url: URL;
  try {
    url = new URL(bookmaker);
  } catch {
    throw new UsageError(`--bookmaker "${bookmaker}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) {
    throw new UsageError(`--bookmaker must be https (http only to a loopback host): the aggregator key is sent to it`);
  }
  const aggregatorKey = env.BOOKMAKER_AGGREGATOR_KEY;
  if (!aggregatorKey) {
    throw new UsageError('--client needs BOOKMAKER_AGGREGATOR_KEY: an aggregator key with the clients:read scope');
  }
  return { bookmakerUrl: url.origin + url.pathname.replace(/\/+$/, ''), clientId, aggregatorKey };
}

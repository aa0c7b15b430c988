import type { SandboxTarget } from './report.ts';

/**
 * The safeguard against certifying a production wallet. A URL alone does not say which environment it serves, so
 * the wallet is checked against the client record Bookmaker holds (aggregator API, `GET /clients/{id}` with an
 * aggregator key holding clients:read): it must be that client's sandbox wallet URL, must not be its production
 * one, and the currency must be the client's. See docs/certification.md for what this does not cover.
 */
export interface SandboxCheck {
  /** Bookmaker's base URL (https, or http to a loopback host). */
  bookmakerUrl: string;
  clientId: string;
  aggregatorKey: string;
  /** The wallet URL to certify, normalised as Bookmaker stores wallet URLs. */
  walletUrl: string;
  currency: string;
  timeoutMs?: number;
}

/** Bookmaker did not confirm that the URL is a sandbox wallet: certification does not start. */
export class SandboxNotConfirmed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxNotConfirmed';
  }
}

/** A wallet base URL as Bookmaker stores it: origin and path, without trailing slashes. */
function normalisedWalletUrl(value: string): string {
  const url = new URL(value);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

interface ClientAnswer {
  client?: {
    currency?: unknown;
    production?: { walletUrl?: unknown };
    sandbox?: { walletUrl?: unknown; tenantId?: unknown };
  };
  error?: { code?: unknown; message?: unknown };
}

export async function confirmSandboxWallet(check: SandboxCheck): Promise<SandboxTarget> {
  const base = check.bookmakerUrl.replace(/\/+$/, '');
  const address = `${base}/api/v1/aggregator/clients/${encodeURIComponent(check.clientId)}`;
  let status: number;
  let text: string;
  try {
    const response = await fetch(address, {
      headers: { authorization: `Bearer ${check.aggregatorKey}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(check.timeoutMs ?? 10_000),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new SandboxNotConfirmed(`cannot reach Bookmaker at ${base} to confirm the sandbox wallet: ${cause}`);
  }
  let answer: ClientAnswer;
  try {
    answer = JSON.parse(text) as ClientAnswer;
  } catch {
    throw new SandboxNotConfirmed(`Bookmaker at ${base} answered ${status} without JSON: is it the API's base URL?`);
  }
  if (status !== 200) {
    const code = typeof answer.error?.code === 'string' ? answer.error.code : 'no code';
    const message = typeof answer.error?.message === 'string' ? `: ${answer.error.message}` : '';
    throw new SandboxNotConfirmed(
      `Bookmaker refused to show client ${check.clientId} (${status} ${code}${message}); check the client id and ` +
        'that BOOKMAKER_AGGREGATOR_KEY is a live aggregator key with the clients:read scope',
    );
  }
  const client = answer.client;
  const sandboxUrl = client?.sandbox?.walletUrl;
  const productionUrl = client?.production?.walletUrl;
  const tenantId = client?.sandbox?.tenantId;
  if (typeof sandboxUrl !== 'string' || typeof productionUrl !== 'string' || typeof tenantId !== 'string') {
    throw new SandboxNotConfirmed(`Bookmaker's answer for client ${check.clientId} has no wallet URLs`);
  }
  const wallet = normalisedWalletUrl(check.walletUrl);
  if (normalisedWalletUrl(productionUrl) === wallet) {
    throw new SandboxNotConfirmed(
      `${check.walletUrl} is the PRODUCTION wallet of client ${check.clientId}: certification never runs against ` +
        `a production wallet; use its sandbox wallet, ${sandboxUrl}`,
    );
  }
  if (normalisedWalletUrl(sandboxUrl) !== wallet) {
    throw new SandboxNotConfirmed(
      `${check.walletUrl} is not the sandbox wallet of client ${check.clientId}, which is ${sandboxUrl}`,
    );
  }
  if (client?.currency !== check.currency) {
    throw new SandboxNotConfirmed(
      `client ${check.clientId} works in ${String(client?.currency)}, not ${check.currency}: give --currency ${String(client?.currency)}`,
    );
  }
  return { environment: 'sandbox', verifiedBy: 'bookmaker', bookmakerUrl: base, clientId: check.clientId, tenantId };
}

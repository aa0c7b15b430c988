import { randomBytes } from 'node:crypto';
import type { Clock } from '../../src/platform/clock.ts';
import { signatureHeaders } from '../../src/wallet/delivery/client.ts';
import type { Fault } from '../../reference-wallet/faults.ts';
import { createReferenceWallet, type ReferenceWallet } from '../../reference-wallet/server.ts';
import { request, type HttpResponse } from './app.ts';

/** A reference wallet on a random loopback port, sharing the test's clock. */
export interface TestWallet {
  wallet: ReferenceWallet;
  url: string;
  secret: string;
  controlToken: string;
  setSecret(secret: string): void;
  addPlayer(id: string, balance: number, currency?: string, blocked?: boolean): Promise<void>;
  balanceOf(id: string): Promise<number | undefined>;
  fault(fault: Partial<Fault> & Pick<Fault, 'mode'>): void;
  /** Every movement call waits this long first (0: answer at once). */
  setLatency(latencyMs: number): void;
  /** POST a movement signed with the wallet's secret (or `secretOverride`). */
  call(
    endpoint: string,
    body: unknown,
    options?: { secret?: string; timestamp?: number; rawBody?: string },
  ): Promise<HttpResponse>;
  close(): Promise<void>;
}

export async function startTestWallet(
  clock: Clock,
  secret = `bm_whsec_${randomBytes(16).toString('hex')}`,
  options: { databaseUrl?: string } = {},
): Promise<TestWallet> {
  const controlToken = randomBytes(16).toString('hex');
  const wallet = await createReferenceWallet({
    secret,
    controlToken,
    now: () => clock.now().getTime(),
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
  });
  const url = await wallet.app.listen({ port: 0, host: '127.0.0.1' });
  const state = { secret };
  return {
    wallet,
    url,
    get secret() {
      return state.secret;
    },
    controlToken,
    setSecret: (value) => {
      state.secret = value;
      wallet.setSecret(value);
    },
    addPlayer: (id, balance, currency = 'BRL', blocked = false) =>
      wallet.store.upsertPlayer({ id, balance, currency, blocked }),
    balanceOf: async (id) => (await wallet.store.player(id))?.balance,
    fault: (fault) => wallet.faults.push({ times: 1, apply: false, delayMs: 6000, ...fault }),
    setLatency: (latencyMs) => wallet.setLatency(latencyMs),
    call: (endpoint, body, options = {}) => {
      const raw = options.rawBody ?? JSON.stringify(body);
      const timestamp = options.timestamp ?? Math.floor(clock.now().getTime() / 1000);
      return request(url, 'POST', `/${endpoint}`, {
        rawBody: raw,
        headers: signatureHeaders(options.secret ?? state.secret, timestamp, raw),
      });
    },
    close: () => wallet.close(),
  };
}

export interface WalletPair {
  production: TestWallet;
  sandbox: TestWallet;
  close(): Promise<void>;
}

/** The two wallets of a client: production and sandbox, separate servers with separate balances. */
export async function startWalletPair(clock: Clock): Promise<WalletPair> {
  const production = await startTestWallet(clock);
  const sandbox = await startTestWallet(clock);
  return {
    production,
    sandbox,
    close: async () => {
      await production.close();
      await sandbox.close();
    },
  };
}

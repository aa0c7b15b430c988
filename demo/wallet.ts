/**
 * The casino's two wallets (production and sandbox): the reference partner wallet, started in this process, and
 * driven only through its HTTP control API (`/_control`), as the casino's back office would drive its own wallet.
 */
import { randomBytes } from 'node:crypto';
import { createReferenceWallet, type ReferenceWallet } from '../reference-wallet/server.ts';
import { callJson } from './http.ts';

interface WalletPlayer {
  id: string;
  balance: number;
  currency: string;
  blocked: boolean;
}

export interface DemoWallet {
  /** Base URL the service calls, e.g. http://127.0.0.1:4000 */
  url: string;
  controlToken: string;
  installSecret(secret: string): Promise<void>;
  player(id: string): Promise<WalletPlayer | null>;
  setPlayer(id: string, balance: number, currency: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts a reference wallet (in memory, no secret yet: it refuses every movement until one is installed). */
export async function startWallet(port: number, host: string): Promise<DemoWallet> {
  const controlToken = randomBytes(16).toString('hex');
  const wallet: ReferenceWallet = await createReferenceWallet({ secret: '', controlToken });
  let url: string;
  try {
    url = await wallet.app.listen({ port, host });
  } catch (error) {
    await wallet.close();
    throw error;
  }
  const control = <T>(method: string, path: string, body?: unknown) =>
    callJson<T>(url, method, `/_control${path}`, {
      headers: { 'x-control-token': controlToken },
      ...(body === undefined ? {} : { body }),
    });
  return {
    url,
    controlToken,
    installSecret: async (secret) => {
      await control('PUT', '/secret', { secret });
    },
    player: async (id) => {
      try {
        return await control<WalletPlayer>('GET', `/players/${encodeURIComponent(id)}`);
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      }
    },
    setPlayer: async (id, balance, currency) => {
      await control('PUT', `/players/${encodeURIComponent(id)}`, { balance, currency, blocked: false });
    },
    close: () => wallet.close(),
  };
}

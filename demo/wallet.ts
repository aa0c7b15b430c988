/**
 * The casino's two wallets (production and sandbox): the reference partner wallet, started in this process, and
 * driven only through its HTTP control API (`/_control`), as the casino's back office would drive its own wallet.
 * The demo's operator also has a fault switch on it (armFault): the next debit or credit is refused once, with an
 * answer the integration contract defines, so a held movement can be tried in the staff console.
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

/** Which movement the fault switch refuses next: a credit (payout, cash-out, refund...) or a debit. */
export const FAULT_TARGETS = ['credit', 'debit'] as const;
export type FaultTarget = (typeof FAULT_TARGETS)[number];

/**
 * The contract's own refusals (docs: integration contract, "Wallet errors"): a 4xx with a valid envelope. The
 * service holds a refused credit or correction debit for review (automatic delivery stops); a refused stake refuses
 * the bet at once, insufficient_funds shown to the player as such.
 */
const FAULT_ANSWERS: Readonly<Record<FaultTarget, { status: number; code: string; message: string }>> = {
  credit: {
    status: 403,
    code: 'player_blocked',
    message: "The casino's wallet refused this credit (the demo's fault switch).",
  },
  debit: {
    status: 402,
    code: 'insufficient_funds',
    message: "The casino's wallet refused this debit (the demo's fault switch).",
  },
};

/** The fault switch: what it will refuse next, if armed, and the last movement it refused. */
interface FaultSwitch {
  armed: FaultTarget | null;
  last: {
    target: FaultTarget;
    kind: string;
    txId: string;
    amount: number;
    currency: string;
    status: number;
    code: string;
    at: string;
  } | null;
}

export interface DemoWallet {
  /** Base URL the service calls, e.g. http://127.0.0.1:4000 */
  url: string;
  controlToken: string;
  installSecret(secret: string): Promise<void>;
  player(id: string): Promise<WalletPlayer | null>;
  setPlayer(id: string, balance: number, currency: string): Promise<void>;
  /** One shot: the next movement to this endpoint is refused (and not applied), then the wallet answers normally. */
  armFault(target: FaultTarget): FaultSwitch;
  disarmFault(): FaultSwitch;
  faultSwitch(): FaultSwitch;
  close(): Promise<void>;
}

/** Starts a reference wallet (in memory, no secret yet: it refuses every movement until one is installed). */
export async function startWallet(port: number, host: string): Promise<DemoWallet> {
  const controlToken = randomBytes(16).toString('hex');
  const wallet: ReferenceWallet = await createReferenceWallet({ secret: '', controlToken });
  const fault: FaultSwitch = { armed: null, last: null };
  // Before the wallet's own handler (a hook added on its instance applies to the routes it already has): the armed
  // refusal answers the next movement of that endpoint, which is then never processed, so no money moves.
  wallet.app.addHook('preHandler', async (request, reply) => {
    const target = request.method === 'POST' ? request.routeOptions.url?.slice(1) : undefined;
    if (!fault.armed || target !== fault.armed) return;
    const movement = readMovement(request.body);
    if (!movement) return;
    const answer = FAULT_ANSWERS[fault.armed];
    fault.last = {
      target: fault.armed,
      ...movement,
      status: answer.status,
      code: answer.code,
      at: new Date().toISOString(),
    };
    fault.armed = null;
    return reply.code(answer.status).send({ error: { code: answer.code, message: answer.message } });
  });
  const copy = (): FaultSwitch => ({ armed: fault.armed, last: fault.last && { ...fault.last } });
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
    armFault: (target) => {
      fault.armed = target;
      return copy();
    },
    disarmFault: () => {
      fault.armed = null;
      return copy();
    },
    faultSwitch: copy,
    close: () => wallet.close(),
  };
}

/** The movement in a wallet call's body (kept as bytes by the wallet, for its signature), or null if it is none. */
function readMovement(body: unknown): { kind: string; txId: string; amount: number; currency: string } | null {
  if (!Buffer.isBuffer(body)) return null;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const { kind, txId, amount, currency } = parsed;
    if (typeof kind !== 'string' || typeof txId !== 'string') return null;
    return {
      kind,
      txId,
      amount: typeof amount === 'number' ? amount : 0,
      currency: typeof currency === 'string' ? currency : '',
    };
  } catch {
    return null;
  }
}

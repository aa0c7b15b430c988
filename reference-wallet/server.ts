import { createHmac, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { registerControls, type CallStats, type ControlledWallet, type ReceivedRequest } from './controls.ts';
import { sendFault, takeFault, type Fault, type FaultHit } from './faults.ts';
import { failure, WalletStore, type MovementRequest, type StoredOutcome } from './store.ts';

/**
 * The reference partner wallet: the wallet side of the integration contract, written to be read.
 * Endpoints: POST {base}/balance | /debit | /credit | /rollback. Test controls live under /_control and need
 * the X-Control-Token header (controls.ts, the faults they inject faults.ts); a real wallet has nothing like them.
 */
export interface ReferenceWalletOptions {
  secret: string;
  controlToken: string;
  /** Current time in ms; tests share their clock with the service so the 300 s window holds. */
  now?: () => number;
  dataDir?: string;
  /** A PostgreSQL server for the ledger instead of PGlite (a database of its own: the wallet creates its tables). */
  databaseUrl?: string;
  /** Every movement call waits this long before it is processed: a slow wallet (0 by default). */
  latencyMs?: number;
}

const CLOCK_WINDOW_SECONDS = 300;
const ENDPOINTS = ['balance', 'debit', 'credit', 'rollback'] as const;
type Endpoint = (typeof ENDPOINTS)[number];
const KINDS: Record<Endpoint, string[]> = {
  balance: ['balance'],
  debit: ['bet', 'resettle', 'adjustment'],
  credit: ['payout', 'refund', 'cashout', 'resettle', 'adjustment'],
  rollback: ['rollback'],
};

export interface ReferenceWallet extends ControlledWallet {
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function createReferenceWallet(options: ReferenceWalletOptions): Promise<ReferenceWallet> {
  const store = await WalletStore.open({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  const now = options.now ?? Date.now;
  let secret = options.secret;
  const faults: Fault[] = [];
  const hits: FaultHit[] = [];
  const received: ReceivedRequest[] = [];
  const stats: CallStats = { inFlight: 0, maxInFlight: 0 };
  let latencyMs = options.latencyMs ?? 0;
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });

  // The signature covers the raw bytes, so the body is kept as bytes and parsed only after it is verified.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  for (const endpoint of ENDPOINTS) {
    app.post(`/${endpoint}`, async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signatureValid = verifySignature(secret, request.headers, raw, now());
      if (!signatureValid) {
        received.push({ endpoint, txId: null, signatureValid });
        return send(reply, failure(401, 'invalid_signature', 'Signature or timestamp is not valid.'));
      }
      const movement = parseMovement(endpoint, raw.toString('utf8'));
      received.push({ endpoint, txId: 'txId' in movement ? movement.txId : null, signatureValid });
      if ('status' in movement) return send(reply, movement);
      stats.inFlight += 1;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      try {
        if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
        return await answer(reply, endpoint, movement);
      } finally {
        stats.inFlight -= 1;
      }
    });
  }

  async function answer(reply: FastifyReply, endpoint: Endpoint, movement: Movement) {
    const fault = takeFault(faults, endpoint);
    if (fault) hits.push({ mode: fault.mode, endpoint, apply: fault.apply, txId: movement.txId });
    // A delayed request is processed only after the wait, so a rollback sent meanwhile arrives first.
    if (fault?.mode === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const outcome = !fault || fault.apply ? await process(store, endpoint, movement) : undefined;
    if (fault && !(fault.mode === 'delay' && outcome)) return sendFault(reply, fault, movement);
    return send(reply, outcome!);
  }

  const setLatency = (value: number) => (latencyMs = value);
  registerControls(app, options.controlToken, {
    store,
    faults,
    hits,
    received,
    stats,
    setSecret: (value) => (secret = value),
    setLatency,
  });

  return {
    app,
    store,
    faults,
    hits,
    received,
    stats,
    setSecret: (value) => (secret = value),
    setLatency,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

/**
 * HMAC-SHA256 over `timestamp.rawBody` (the bytes as received), hex in either case, compared in constant time,
 * within 300 s. Without a configured secret nothing verifies: an empty key would let anyone sign.
 */
function verifySignature(secret: string, headers: Record<string, unknown>, raw: Buffer, nowMs: number): boolean {
  if (!secret) return false;
  const timestamp = headers['x-timestamp'];
  const signature = headers['x-signature'];
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > CLOCK_WINDOW_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

type Movement = Omit<MovementRequest, 'endpoint'>;

function parseMovement(endpoint: Endpoint, raw: string): Movement | StoredOutcome {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return failure(400, 'invalid_request', 'The body is not JSON.');
  }
  const { txId, playerId, amount, currency, kind, betId, ref } = body;
  if (typeof txId !== 'string' || txId.length === 0 || txId.length > 200)
    return failure(400, 'invalid_request', 'txId must be 1-200 characters.');
  if (typeof playerId !== 'string' || playerId.length === 0)
    return failure(400, 'invalid_request', 'playerId is required.');
  if (!Number.isSafeInteger(amount) || (amount as number) < 0)
    return failure(400, 'invalid_request', 'amount must be a non-negative integer.');
  if (typeof currency !== 'string') return failure(400, 'invalid_request', 'currency is required.');
  if (typeof kind !== 'string' || !KINDS[endpoint].includes(kind))
    return failure(400, 'invalid_request', `kind must be one of ${KINDS[endpoint].join(', ')}.`);
  if (endpoint === 'rollback' && typeof ref !== 'string')
    return failure(400, 'invalid_request', 'ref names the debit to roll back.');
  return {
    txId,
    playerId,
    amount: amount as number,
    currency,
    kind,
    betId: typeof betId === 'string' ? betId : null,
    ref: typeof ref === 'string' ? ref : null,
  };
}

async function process(store: WalletStore, endpoint: Endpoint, movement: Movement): Promise<StoredOutcome> {
  if (endpoint !== 'balance') return store.apply({ ...movement, endpoint });
  const player = await store.player(movement.playerId);
  if (!player) return failure(404, 'player_not_found', 'Unknown player.');
  if (player.currency !== movement.currency)
    return failure(400, 'currency_mismatch', `The player's currency is ${player.currency}.`);
  return { status: 200, body: { txId: movement.txId, balance: player.balance, currency: player.currency } };
}

function send(reply: FastifyReply, outcome: StoredOutcome) {
  return reply.code(outcome.status).send(outcome.body);
}

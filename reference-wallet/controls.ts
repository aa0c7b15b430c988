import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Fault, FaultHit } from './faults.ts';
import type { WalletStore } from './store.ts';

/**
 * The reference wallet's test controls under /_control, behind the X-Control-Token header: players, the secret,
 * latency and faults set, and what the wallet received read back. A real wallet has nothing like them.
 */

/** How many movement calls are being processed now, and the most at once since the last reset. */
export interface CallStats {
  inFlight: number;
  maxInFlight: number;
}

export interface ReceivedRequest {
  endpoint: string;
  txId: string | null;
  signatureValid: boolean;
}

/** What the controls read and change. */
export interface ControlledWallet {
  store: WalletStore;
  faults: Fault[];
  /** Every fault that hit a request, in order. */
  hits: FaultHit[];
  received: ReceivedRequest[];
  stats: CallStats;
  setSecret(secret: string): void;
  setLatency(latencyMs: number): void;
}

export function registerControls(app: FastifyInstance, controlToken: string, state: ControlledWallet) {
  app.register(
    async (controls) => {
      controls.addHook('onRequest', async (request, reply) => {
        const given = request.headers['x-control-token'];
        const ok =
          typeof given === 'string' &&
          given.length === controlToken.length &&
          timingSafeEqual(Buffer.from(given), Buffer.from(controlToken));
        if (!ok)
          return reply.code(401).send({ error: { code: 'unauthorized', message: 'X-Control-Token is required.' } });
      });
      const json = (raw: unknown) => JSON.parse(String(raw)) as Record<string, unknown>;

      controls.put('/secret', async (request) => {
        state.setSecret(String(json(request.body).secret));
        return { ok: true };
      });
      controls.put<{ Params: { id: string } }>('/players/:id', async (request) => {
        const body = json(request.body);
        await state.store.upsertPlayer({
          id: request.params.id,
          balance: Number(body.balance ?? 0),
          currency: typeof body.currency === 'string' ? body.currency : 'BRL',
          blocked: body.blocked === true,
        });
        return state.store.player(request.params.id);
      });
      controls.get<{ Params: { id: string } }>(
        '/players/:id',
        async (request, reply) =>
          (await state.store.player(request.params.id)) ??
          reply.code(404).send({ error: { code: 'player_not_found', message: 'Unknown player.' } }),
      );
      controls.get('/transactions', async () => ({ transactions: await state.store.transactions() }));
      controls.get('/requests', async () => ({ requests: state.received }));
      controls.post('/faults', async (request) => {
        const body = json(request.body);
        const fault: Fault = {
          mode: body.mode as Fault['mode'],
          ...(typeof body.endpoint === 'string' ? { endpoint: body.endpoint } : {}),
          times: Number(body.times ?? 1),
          apply: body.apply === true,
          delayMs: Number(body.delayMs ?? 6000),
        };
        state.faults.push(fault);
        return { faults: state.faults };
      });
      controls.get('/faults', async () => ({ faults: state.faults, hits: state.hits }));
      controls.delete('/faults', async () => {
        state.faults.length = 0;
        return { faults: [] };
      });
      controls.put('/latency', async (request) => {
        state.setLatency(Math.max(0, Number(json(request.body).latencyMs ?? 0)));
        return { ok: true };
      });
      controls.get('/stats', async () => state.stats);
      controls.delete('/stats', async () => {
        state.stats.maxInFlight = state.stats.inFlight;
        return state.stats;
      });
    },
    { prefix: '/_control' },
  );
}

import type { FastifyReply } from 'fastify';
import type { MovementRequest } from './store.ts';

/**
 * The reference wallet's injected faults: what a test queues (POST /_control/faults) to make the next movement
 * calls fail the ways a real wallet can, and the faulty answers themselves.
 */
type FaultMode =
  | 'delay' // wait delayMs (past the caller's 5 s timeout), then apply and answer normally when apply, else 503
  | 'reset' // close the connection without an answer
  | 'refuse' // a definitive 4xx with a valid error envelope (code refused_by_test)
  | 'status_500'
  | 'status_503'
  | 'status_408'
  | 'status_429'
  | 'malformed' // 200 with a body that is not JSON
  | 'empty_4xx' // 400 with an empty body
  | 'wrong_tx_id' // 200 echoing another txId
  | 'wrong_currency'; // 200 in another currency

export interface Fault {
  mode: FaultMode;
  /** Which endpoint it hits; all when absent. */
  endpoint?: string;
  /** How many requests it hits before it clears itself. */
  times: number;
  /** Whether the movement is applied before the faulty answer (the worst case for the caller). */
  apply: boolean;
  delayMs: number;
}

/** A fault that hit a request: what the caller saw, for a test or a soak to count. */
export interface FaultHit {
  mode: FaultMode;
  endpoint: string;
  apply: boolean;
  txId: string;
}

/** The first queued fault for the endpoint, counted as hitting it (and cleared when that was its last time). */
export function takeFault(faults: Fault[], endpoint: string): Fault | undefined {
  const index = faults.findIndex((fault) => !fault.endpoint || fault.endpoint === endpoint);
  if (index < 0) return undefined;
  const fault = faults[index]!;
  fault.times -= 1;
  if (fault.times <= 0) faults.splice(index, 1);
  return fault;
}

export function sendFault(reply: FastifyReply, fault: Fault, movement: Pick<MovementRequest, 'txId' | 'currency'>) {
  switch (fault.mode) {
    case 'status_500':
    case 'status_503':
    case 'status_408':
    case 'status_429':
      return reply
        .code(Number(fault.mode.slice(-3)))
        .type('application/json')
        .send('{"error":{"code":"temporary","message":"try later"}}');
    case 'malformed':
      return reply.code(200).type('application/json').send('{"txId": "');
    case 'empty_4xx':
      return reply.code(400).type('application/json').send('');
    case 'wrong_tx_id':
      return reply.code(200).send({ txId: `${movement.txId}-other`, balance: 0, currency: movement.currency });
    case 'wrong_currency':
      return reply
        .code(200)
        .send({ txId: movement.txId, balance: 0, currency: movement.currency === 'EUR' ? 'USD' : 'EUR' });
    case 'delay':
      return reply.code(503).type('application/json').send('{"error":{"code":"timeout","message":"gave up"}}');
    case 'reset':
      reply.raw.socket?.destroy();
      return reply.hijack();
    case 'refuse':
      return reply.code(400).send({ error: { code: 'refused_by_test', message: 'refused by an injected fault' } });
  }
}

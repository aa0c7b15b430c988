// An instant wallet for the benchmarks: the contract's answers (signature checked, txId echoed, balance and currency
// given, a repeated txId answered as the first time) kept in memory, with no ledger behind them, so that what a
// benchmark measures is the service and not the partner's wallet. The goals of the CPU issue are stated against a
// wallet "answering at once"; the reference wallet, a ledger in a database, is what `BENCH_WALLET=reference` runs.
//
// It speaks the reference wallet's test controls that the benchmarks use (PUT /_control/secret, /players/:id and
// /latency, with X-Control-Token) and prints the same first line: {"wallet": url}.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const CLOCK_WINDOW_MS = 300_000;
const controlToken = process.env.WALLET_CONTROL_TOKEN ?? '';
let secret = '';
let latencyMs = 0;
const balances = new Map<string, number>();
/** Each txId's answer, so a repeat is answered as the first time and moves nothing. */
const answered = new Map<string, { status: number; body: string }>();

interface Movement {
  txId: string;
  playerId: string;
  amount: number;
  currency: string;
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => void answer(request, Buffer.concat(chunks).toString('utf8'), response));
});

async function answer(request: IncomingMessage, raw: string, response: ServerResponse): Promise<void> {
  const path = request.url ?? '';
  if (path.startsWith('/_control/')) return control(request, path.slice('/_control'.length), raw, response);
  const endpoint = path.slice(1);
  if (request.method !== 'POST' || !['balance', 'debit', 'credit', 'rollback'].includes(endpoint)) {
    return send(response, 404, { error: { code: 'not_found', message: 'No such endpoint.' } });
  }
  if (!signed(request, raw))
    return send(response, 401, { error: { code: 'invalid_signature', message: 'Bad signature.' } });
  const movement = JSON.parse(raw) as Movement;
  if (latencyMs > 0) await sleep(latencyMs);
  const before = answered.get(movement.txId);
  if (before) return sendRaw(response, before.status, before.body);
  const balance = balances.get(movement.playerId) ?? 0;
  const after =
    endpoint === 'debit' ? balance - movement.amount : endpoint === 'credit' ? balance + movement.amount : balance;
  const outcome =
    after < 0
      ? { status: 402, body: JSON.stringify({ error: { code: 'insufficient_funds', message: 'Not enough money.' } }) }
      : { status: 200, body: JSON.stringify({ txId: movement.txId, balance: after, currency: movement.currency }) };
  if (outcome.status === 200) balances.set(movement.playerId, after);
  if (endpoint !== 'balance') answered.set(movement.txId, outcome);
  sendRaw(response, outcome.status, outcome.body);
}

/** X-Signature over `timestamp.rawBody`, within 300 s of this clock, compared in constant time. */
function signed(request: IncomingMessage, raw: string): boolean {
  const timestamp = String(request.headers['x-timestamp'] ?? '');
  const signature = Buffer.from(String(request.headers['x-signature'] ?? '').toLowerCase(), 'hex');
  if (Math.abs(Date.now() - Number(timestamp) * 1000) > CLOCK_WINDOW_MS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}

function control(request: IncomingMessage, path: string, raw: string, response: ServerResponse): void {
  if (request.headers['x-control-token'] !== controlToken || request.method !== 'PUT') {
    return send(response, 403, { error: { code: 'forbidden', message: 'Controls need X-Control-Token and PUT.' } });
  }
  const body = JSON.parse(raw || '{}') as { secret?: string; balance?: number; latencyMs?: number };
  if (path === '/secret') secret = body.secret ?? '';
  else if (path === '/latency') latencyMs = body.latencyMs ?? 0;
  else if (path.startsWith('/players/'))
    balances.set(decodeURIComponent(path.slice('/players/'.length)), body.balance ?? 0);
  else return send(response, 404, { error: { code: 'not_found', message: 'No such control.' } });
  send(response, 200, {});
}

function send(response: ServerResponse, status: number, body: unknown): void {
  sendRaw(response, status, JSON.stringify(body));
}

function sendRaw(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

server.keepAliveTimeout = 10_000;
server.listen({ port: Number(process.env.WALLET_PORT ?? 0), host: '127.0.0.1' }, () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ wallet: `http://127.0.0.1:${port}` })}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));

// Starts the reference partner wallet: npm run wallet
//   WALLET_PORT (4000), WALLET_HOST (127.0.0.1), WALLET_SECRET (the wallet secret Bookmaker gave you; can be
//   set later through PUT /_control/secret), WALLET_CONTROL_TOKEN (generated and printed when unset),
//   WALLET_DATA_DIR (in-memory when unset), WALLET_DATABASE_URL (a PostgreSQL database for the ledger instead of
//   PGlite; the wallet creates its tables there), WALLET_PLAYERS ("id:balance:currency,..." created at start; a
//   fourth part "blocked", "id:balance:currency:blocked", makes a blocked player), WALLET_LATENCY_MS (every movement
//   call waits this long first; 0 when unset).
import { randomBytes } from 'node:crypto';
import { DataDirError } from '../src/platform/data-dir.ts';
import { createReferenceWallet } from './server.ts';

const env = process.env;
const controlToken = env.WALLET_CONTROL_TOKEN || randomBytes(16).toString('hex');
// The ledger's files in WALLET_DATA_DIR are for this user alone.
process.umask(0o077);
const wallet = await createReferenceWallet({
  secret: env.WALLET_SECRET ?? '',
  controlToken,
  ...(env.WALLET_DATA_DIR ? { dataDir: env.WALLET_DATA_DIR } : {}),
  ...(env.WALLET_DATABASE_URL ? { databaseUrl: env.WALLET_DATABASE_URL } : {}),
  latencyMs: Number(env.WALLET_LATENCY_MS ?? 0),
}).catch((error: unknown) => {
  if (!(error instanceof DataDirError)) throw error;
  process.stderr.write(`wallet: ${error.message}\n`);
  process.exit(1);
});
for (const entry of (env.WALLET_PLAYERS ?? '').split(',').filter(Boolean)) {
  const [id, balance, currency, state] = entry.split(':');
  if (state !== undefined && state !== 'blocked') {
    process.stderr.write(`wallet: WALLET_PLAYERS "${entry}": the fourth part can only be "blocked"\n`);
    process.exit(1);
  }
  await wallet.store.upsertPlayer({
    id: id!,
    balance: Number(balance ?? 0),
    currency: currency ?? 'BRL',
    blocked: state === 'blocked',
  });
}
const url = await wallet.app.listen({ port: Number(env.WALLET_PORT ?? 4000), host: env.WALLET_HOST ?? '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ wallet: url, controlToken })}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void wallet.close().then(() => process.exit(0)));
}

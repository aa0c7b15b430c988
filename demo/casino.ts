/**
 * The demo casino: a small casino site on its own origin that embeds the sportsbook the way a real one would.
 *
 * - It logs its players in on its own server (a name, a cookie session): accounts, KYC and cashier are the casino's.
 * - It asks the Bookmaker integration API for a player session server-side (X-Tenant-ID + X-API-Key of the
 *   production environment): the integration key never reaches the browser, only single-use launch tokens do.
 * - Its page loads `{sportsbook}/embed/v1.js` and mounts the sportsbook (public/casino.js).
 * - Its cashier credits the player in the casino's wallet (the reference wallet's control API).
 * - A development-only "trader shortcut" settles markets with a trader staff token the demo created.
 * - A development-only "wallet fault switch" makes its wallet refuse the next credit or debit, once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { cashierRoutes } from './casino-cashier.ts';
import { playerRoutes } from './casino-players.ts';
import { CasinoError, CasinoState, type CasinoSetup } from './casino-state.ts';
import { traderShortcutRoutes } from './casino-trader-shortcut.ts';
import { walletFaultRoutes } from './casino-wallet-fault.ts';
import { HttpError } from './http.ts';

export interface Casino {
  url: string;
  configure(setup: CasinoSetup): void;
  close(): Promise<void>;
}

const PUBLIC = join(import.meta.dirname, 'public');
const ASSETS: Record<string, { type: string; file: string }> = {
  '/casino.js': { type: 'text/javascript; charset=utf-8', file: 'casino.js' },
  '/casino.css': { type: 'text/css; charset=utf-8', file: 'casino.css' },
  '/favicon.svg': { type: 'image/svg+xml', file: 'favicon.svg' },
};

/** Starts listening at once (CreateClient needs the casino's origin); pages answer "starting" until configure(). */
export async function startCasino(port: number, host: string): Promise<Casino> {
  const state = new CasinoState();
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });

  // Every answer of the casino is about one visitor: never cached.
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof CasinoError) {
      return reply.code(error.status).send({ error: { code: error.code, message: error.message } });
    }
    if (error instanceof HttpError) {
      return reply.code(502).send({ error: { code: error.code ?? 'upstream', message: error.message } });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send({ error: { code: 'casino_error', message: (error as Error).message } });
  });

  for (const [path, asset] of Object.entries(ASSETS)) {
    const body = readFileSync(join(PUBLIC, asset.file));
    app.get(path, async (_request, reply) =>
      reply.header('content-type', asset.type).header('cache-control', 'no-cache').send(body),
    );
  }

  playerRoutes(app, state);
  cashierRoutes(app, state);
  traderShortcutRoutes(app, state);
  walletFaultRoutes(app, state);

  const url = await app.listen({ port, host });
  return {
    url,
    configure: (setup) => state.configure(setup),
    close: () => app.close(),
  };
}

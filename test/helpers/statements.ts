import type { HttpResponse, TestApp } from './app.ts';
import { drainDeliveries } from './delivery.ts';
import { newRequestId, resultsOf, settleMarket, type Sportsbook } from './sportsbook.ts';
import type { TestTenant } from './tenant.ts';
import type { TestWallet } from './wallet.ts';

/** The day the test clock starts in (12:00 UTC), and a time when its statement is served. */
export const STATEMENT_DAY = '2026-03-01';
export const AFTER_THE_DAY = '2026-03-02T00:06:00Z';

/**
 * A day of money for one player, every kind the scenario can make through the API: a bet won (stake, payout), a
 * bet lost (stake, payout 0), a bet voided (stake, refund), and a stake the wallet applied but answered with a 503: its
 * outcome unknown to the service (never counted), and its rollback. Returns the txIds that count as applied.
 */
export async function aDayOfMovements(t: TestApp, book: Sportsbook, wallet: TestWallet, token: string) {
  const place = async (event: number, stake: number) => {
    const placed = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake, legs: [{ selectionId: book.events[event]!.home, odds: '2.10' }] },
    });
    return placed.body.bet?.id as string;
  };
  const won = await place(0, 10_00);
  const lost = await place(1, 5_00);
  const voided = await place(2, 3_00);
  // The wallet applies this stake, then answers 503: unknown to the service, never counted, and rolled back.
  wallet.fault({ mode: 'status_503', endpoint: 'debit', apply: true });
  await place(0, 7_00);
  const unknown = (
    await t.db
      .selectFrom('wallet_obligations')
      .select('bet_id')
      .where('kind', '=', 'bet')
      .where('status', '=', 'unknown')
      .executeTakeFirstOrThrow()
  ).bet_id!;
  await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'));
  await settleMarket(t, book, book.events[1]!.marketId, resultsOf(book.events[1]!, 'away'));
  await settleMarket(t, book, book.events[2]!.marketId, resultsOf(book.events[2]!, 'void'));
  await drainDeliveries(t);
  return {
    won,
    lost,
    voided,
    unknown,
    applied: [
      `bet:${won}`,
      `bet:${lost}`,
      `bet:${voided}`,
      `payout:${won}:1`,
      `payout:${lost}:1`,
      `payout:${voided}:1`,
      `rollback:bet:${unknown}`,
    ],
  };
}

export function getStatement(
  t: TestApp,
  tenant: TestTenant,
  day = STATEMENT_DAY,
  query = '',
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  return t.request('GET', `/api/v1/integration/statements/${day}${query}`, {
    headers: { 'x-tenant-id': tenant.tenantId, 'x-api-key': tenant.apiKey, ...headers },
  });
}

import { sql } from 'kysely';
import { RETRY_DELAYS_MS } from '../../src/wallet/delivery/engine.ts';
import type { TestApp } from './app.ts';

/** The whole burst of five attempts: after it, the next attempt is a 30 s resend. */
const BURST_MS = RETRY_DELAYS_MS.reduce((total, wait) => total + wait, 0);

/**
 * Delivers every movement due now and the rest of each burst, moving the test clock through the 200-1,600 ms
 * waits as time would; stops at the 30 s resends (advance the clock to see those).
 */
export async function drainDeliveries(t: TestApp): Promise<void> {
  const horizon = t.clock.now().getTime() + BURST_MS;
  for (;;) {
    await t.app.services.delivery.idle();
    // What is due now and still pending is blocked behind its bet's predecessor: only later times move the clock.
    const { rows } = await sql<{ due: Date | null }>`
      select min(next_attempt_at) as due from wallet_obligations
      where status = 'pending' and kind <> 'bet' and next_attempt_at > ${t.clock.now()}`.execute(t.db);
    const due = rows[0]?.due;
    if (!due || due.getTime() > horizon) return;
    t.clock.set(due.toISOString());
  }
}

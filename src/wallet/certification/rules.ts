import { WALLET_ENDPOINTS, type Movement, type MovementKind, type WalletEndpoint } from '../ledger/movement.ts';
import type { Tamper, WireCall } from './wire.ts';

/**
 * The rules of the wallet contract as certification checks them, each with the section of the integration contract
 * it comes from (told to partners in docs/wallet-contract.md; docs/certification.md explains each rule). Every
 * answer is read by the service's own classifyAnswer (through WalletClient): a rule asks only what the service
 * would conclude. Every rule that moves money leaves the balance as it found it; the runner checks that after each.
 */

/** The stake of every bet the rules place, in minor units (1.00 in every currency of the contract). */
const STAKE = 100;
/** What the funded player needs: the rules have at most one stake out at a time; the rest is a margin. */
const MINIMUM_FUNDS = 2 * STAKE;

/**
 * Whose balance a rule moves: the runner reads it before and after, and puts back whatever the rule left moved. A
 * blocked player's wallet may refuse its balance reads too (player_blocked): the rule then runs without them.
 */
type PlayerRole = 'funded' | 'empty' | 'blocked';

export interface RuleContext {
  /** The id of the rule's player (the funded player for rules without one). */
  readonly player: string;
  /** The rule's player's balance before it ran. */
  readonly before: number;
  /**
   * Whether the player's balance could be read before the rule: false only for a blocked player whose wallet
   * refuses its reads with player_blocked (before is then 0, and no balance is checked after the rule).
   */
  readonly balanceReadable: boolean;
  /** A txId of this run and rule: `cert:<runId>:<rule>:<name>`. */
  tx(name: string): string;
  /** A /balance call for the rule's player (or `playerId`), with a fresh txId. */
  balance(step: string, playerId?: string): Promise<WireCall>;
  /** A movement to the rule's player (or `playerId`) in the run's currency, built by the service's movementBody. */
  move(step: string, endpoint: WalletEndpoint, movement: MovementInput, tamper?: Tamper): Promise<WireCall>;
  /** The same body bytes again, on the same endpoint (a redelivery), with a fresh timestamp and signature. */
  replay(step: string, call: WireCall): Promise<WireCall>;
  /** A body written by hand (certification's own wording of a movement), signed over exactly these bytes. */
  sendText(step: string, endpoint: WalletEndpoint, body: string, txId: string, tamper?: Tamper): Promise<WireCall>;
  /** Several calls at once. */
  concurrently<T>(work: Array<() => Promise<T>>): Promise<T[]>;
  readonly currency: string;
}

type MovementInput = Omit<Movement, 'currency' | 'playerId'> & { playerId?: string };

export interface Rule {
  id: string;
  title: string;
  /** Where the rule comes from: the contract's section, as named there. */
  contract: string;
  /** The player the rule needs; rules without one move no money. */
  player?: PlayerRole;
  /** Resolves with what was seen when the rule holds; throws RuleFailure when it does not. */
  run(ctx: RuleContext): Promise<string>;
}

/** A rule does not hold: why, and the call that showed it. */
export class RuleFailure extends Error {
  readonly call: WireCall | undefined;
  constructor(message: string, call?: WireCall) {
    super(message);
    this.name = 'RuleFailure';
    this.call = call;
  }
}

/** What a call proved, in a few words. */
export function describeOutcome(call: WireCall): string {
  const outcome = call.outcome;
  switch (outcome.outcome) {
    case 'applied':
      return `applied (${outcome.status}, balance ${outcome.balance} ${outcome.currency})`;
    case 'refused':
      return `refused (${outcome.status} ${outcome.code})`;
    case 'unknown':
      return `unknown outcome (${outcome.status ?? 'no answer'}: ${outcome.reason}${outcome.detail ? `, ${outcome.detail}` : ''})`;
    case 'not_sent':
      return `not sent (${outcome.reason}: ${outcome.detail})`;
  }
}

/** The call was applied, with this balance when one is given; returns the balance it answered. */
function applied(call: WireCall, balance?: number): number {
  if (call.outcome.outcome !== 'applied') {
    throw new RuleFailure(`${call.step}: expected it applied, got ${describeOutcome(call)}`, call);
  }
  if (balance !== undefined && call.outcome.balance !== balance) {
    throw new RuleFailure(
      `${call.step}: expected balance ${balance}, the wallet answered ${call.outcome.balance}`,
      call,
    );
  }
  return call.outcome.balance;
}

/** The call was refused with this code (any 4xx but 408/429 with a valid envelope, as classifyAnswer says). */
function refused(call: WireCall, code: string, status?: number): void {
  const outcome = call.outcome;
  if (outcome.outcome !== 'refused' || outcome.code !== code || (status !== undefined && outcome.status !== status)) {
    const wanted = `${status ?? '4xx'} ${code}`;
    throw new RuleFailure(`${call.step}: expected it refused with ${wanted}, got ${describeOutcome(call)}`, call);
  }
}

/** The replay answered what the first call answered (the stored outcome: status, and balance or code). */
function sameAnswer(replay: WireCall, first: WireCall): void {
  const a = first.outcome;
  const b = replay.outcome;
  const same =
    a.status === b.status &&
    a.outcome === b.outcome &&
    (a.outcome !== 'applied' || (b.outcome === 'applied' && a.balance === b.balance)) &&
    (a.outcome !== 'refused' || (b.outcome === 'refused' && a.code === b.code));
  if (!same) {
    throw new RuleFailure(
      `${replay.step}: expected the stored outcome of the first call, ${describeOutcome(first)}; got ${describeOutcome(replay)}`,
      replay,
    );
  }
}

const PROBE_KIND: Record<WalletEndpoint, MovementKind> = {
  balance: 'balance',
  debit: 'bet',
  credit: 'payout',
  rollback: 'rollback',
};

/**
 * A call with a bad signature on each endpoint must be refused with 401 invalid_signature. The probes carry
 * amount 0, so a wallet that wrongly accepts one moves nothing.
 */
async function signatureRefused(ctx: RuleContext, tamper: Tamper, what: string): Promise<string> {
  const problems: string[] = [];
  let first: WireCall | undefined;
  for (const endpoint of WALLET_ENDPOINTS) {
    const call = await ctx.move(
      `${endpoint} ${what}`,
      endpoint,
      {
        txId: ctx.tx(`probe-${endpoint}`),
        amount: 0,
        kind: PROBE_KIND[endpoint],
        ...(endpoint === 'balance' ? {} : { betId: ctx.tx('probe-bet') }),
        ...(endpoint === 'rollback' ? { ref: ctx.tx('probe-debit') } : {}),
      },
      tamper,
    );
    try {
      refused(call, 'invalid_signature', 401);
    } catch (error) {
      problems.push((error as Error).message);
      first ??= call;
    }
  }
  if (problems.length > 0) throw new RuleFailure(problems.join('; '), first);
  return `all four endpoints answered 401 invalid_signature`;
}

export const RULES: Rule[] = [
  {
    id: 'balance.shape',
    title: 'The balance answers an integer amount in the registered currency',
    contract: 'Wallet endpoints (/balance); Wallet movement (success body); Wallet movement delivery',
    run: async (ctx) => {
      const balance = applied(await ctx.balance('balance of the funded player'));
      return `balance ${balance} ${ctx.currency}`;
    },
  },
  {
    id: 'setup.funded-player',
    title: `The funded test player holds at least ${MINIMUM_FUNDS} minor units`,
    contract: 'certification precondition',
    player: 'funded',
    run: async (ctx) => {
      if (ctx.before < MINIMUM_FUNDS) {
        throw new RuleFailure(
          `the funded player holds ${ctx.before}; the rules need at least ${MINIMUM_FUNDS}: credit it in your sandbox`,
        );
      }
      return `balance ${ctx.before}`;
    },
  },
  {
    id: 'signature.required',
    title: 'A call without X-Signature is refused with 401 invalid_signature',
    contract: 'Signature; Wallet errors',
    run: (ctx) => signatureRefused(ctx, 'no_signature', 'without X-Signature'),
  },
  {
    id: 'signature.wrong',
    title: 'A call signed with another secret is refused with 401 invalid_signature',
    contract: 'Signature; Wallet errors',
    run: (ctx) => signatureRefused(ctx, 'wrong_secret', 'signed with a wrong secret'),
  },
  {
    id: 'signature.stale-timestamp',
    title: 'A timestamp more than 300 s in the past is refused with 401 invalid_signature',
    contract: 'Signature (300 s window); Limits (wallet clock window)',
    run: (ctx) => signatureRefused(ctx, 'stale_timestamp', 'with X-Timestamp 360 s in the past'),
  },
  {
    id: 'signature.future-timestamp',
    title: 'A timestamp more than 300 s in the future is refused with 401 invalid_signature',
    contract: 'Signature (300 s window); Limits (wallet clock window)',
    run: (ctx) => signatureRefused(ctx, 'future_timestamp', 'with X-Timestamp 360 s in the future'),
  },
  {
    id: 'signature.hex-case',
    title: 'A signature in upper-case hex is accepted',
    contract: 'Signature (accept hex in either case)',
    run: async (ctx) => {
      const call = await ctx.move(
        'balance signed in upper-case hex',
        'balance',
        { txId: ctx.tx('balance-upper-case'), amount: 0, kind: 'balance' },
        'uppercase_signature',
      );
      applied(call);
      return 'accepted (lower case is what every other call sends)';
    },
  },
  {
    id: 'signature.raw-body',
    title: 'The signature is verified over the body bytes as sent, not a re-serialised body',
    contract: 'Signature (rawBody byte for byte; verify before parsing; never re-serialise)',
    run: async (ctx) => {
      const txId = ctx.tx('balance-raw-body');
      // Valid JSON that no serialiser writes this way: another key order, spaces, line breaks.
      const body =
        `{ "kind" : "balance",\n  "currency":"${ctx.currency}", "amount":0 ,` +
        `"playerId": ${JSON.stringify(ctx.player)}, "txId" : ${JSON.stringify(txId)} }\n`;
      applied(await ctx.sendText('balance with unusual JSON spacing and key order', 'balance', body, txId));
      return 'accepted';
    },
  },
  {
    id: 'movement.debit-then-credit',
    title: 'A stake debit, then its payout credit, each answered with txId, balance and currency',
    contract: 'Wallet endpoints: Debit rules, Credit rules; Wallet movement (success body: txId echoed)',
    player: 'funded',
    run: async (ctx) => {
      const betId = ctx.tx('bet');
      applied(
        await ctx.move('stake', 'debit', { txId: ctx.tx('stake'), amount: STAKE, kind: 'bet', betId }),
        ctx.before - STAKE,
      );
      applied(
        await ctx.move('payout', 'credit', { txId: ctx.tx('payout'), amount: STAKE, kind: 'payout', betId }),
        ctx.before,
      );
      return `${ctx.before} -> ${ctx.before - STAKE} -> ${ctx.before}`;
    },
  },
  {
    id: 'movement.zero-credit',
    title: "A credit of amount 0 (a lost bet's payout) is accepted with the balance unchanged",
    contract: 'Credit rules (amount 0 must be accepted); Wallet endpoints (/credit)',
    player: 'funded',
    run: async (ctx) => {
      const betId = ctx.tx('bet');
      const staked = ctx.before - STAKE;
      applied(await ctx.move('stake', 'debit', { txId: ctx.tx('stake'), amount: STAKE, kind: 'bet', betId }), staked);
      applied(
        await ctx.move('payout of 0', 'credit', { txId: ctx.tx('payout'), amount: 0, kind: 'payout', betId }),
        staked,
      );
      // The market resettled in the player's favour: a correction credit returns the stake.
      applied(
        await ctx.move('correction credit', 'credit', {
          txId: ctx.tx('resettle'),
          amount: STAKE,
          kind: 'resettle',
          betId,
        }),
        ctx.before,
      );
      return `payout 0 answered ${staked}, unchanged`;
    },
  },
  {
    id: 'rollback.applied-debit',
    title: 'A rollback returns an applied stake',
    contract: 'Rollback rules (1: debit applied and not yet reversed)',
    player: 'funded',
    run: async (ctx) => {
      const betId = ctx.tx('bet');
      const stake = ctx.tx('stake');
      applied(await ctx.move('stake', 'debit', { txId: stake, amount: STAKE, kind: 'bet', betId }), ctx.before - STAKE);
      applied(
        await ctx.move('rollback', 'rollback', {
          txId: ctx.tx('rollback'),
          amount: STAKE,
          kind: 'rollback',
          betId,
          ref: stake,
        }),
        ctx.before,
      );
      return `${ctx.before} -> ${ctx.before - STAKE} -> ${ctx.before}`;
    },
  },
  {
    id: 'rollback.twice',
    title: 'A second rollback of a reversed stake answers 2xx and moves nothing',
    contract: 'Rollback rules (2: already reversed)',
    player: 'funded',
    run: async (ctx) => {
      const betId = ctx.tx('bet');
      const stake = ctx.tx('stake');
      const rollback = (name: string) => ({
        txId: ctx.tx(name),
        amount: STAKE,
        kind: 'rollback' as const,
        betId,
        ref: stake,
      });
      applied(await ctx.move('stake', 'debit', { txId: stake, amount: STAKE, kind: 'bet', betId }), ctx.before - STAKE);
      applied(await ctx.move('first rollback', 'rollback', rollback('rollback-1')), ctx.before);
      applied(
        await ctx.move('second rollback (another txId, same ref)', 'rollback', rollback('rollback-2')),
        ctx.before,
      );
      return `the second rollback answered ${ctx.before}, unchanged`;
    },
  },
  {
    id: 'rollback.before-debit',
    title: 'A rollback before its debit answers 2xx; that debit is then refused with rolled_back',
    contract: 'Rollback rules (3: debit never seen); Wallet errors (rolled_back)',
    player: 'funded',
    run: async (ctx) => {
      const betId = ctx.tx('bet');
      const stake = ctx.tx('stake');
      applied(
        await ctx.move('rollback of a stake not sent yet', 'rollback', {
          txId: ctx.tx('rollback'),
          amount: STAKE,
          kind: 'rollback',
          betId,
          ref: stake,
        }),
        ctx.before,
      );
      refused(
        await ctx.move('the stake, arriving after its rollback', 'debit', {
          txId: stake,
          amount: STAKE,
          kind: 'bet',
          betId,
        }),
        'rolled_back',
      );
      return 'rollback answered the unchanged balance; the late stake was refused with rolled_back';
    },
  },
  {
    id: 'debit.insufficient-stake',
    title: 'A stake above the balance is refused with insufficient_funds and moves nothing',
    contract: 'Debit rules (1: kind bet); Wallet errors (insufficient_funds)',
    player: 'empty',
    run: async (ctx) => {
      const amount = ctx.before + STAKE;
      const call = await ctx.move('stake above the balance', 'debit', {
        txId: ctx.tx('stake'),
        amount,
        kind: 'bet',
        betId: ctx.tx('bet'),
      });
      refused(call, 'insufficient_funds');
      return `refused with ${call.outcome.status} insufficient_funds`;
    },
  },
  {
    id: 'debit.insufficient-correction',
    title: 'A correction debit above the balance is refused with insufficient_funds: no partial collection',
    contract: 'Debit rules (2: kind resettle or adjustment); Wallet errors (insufficient_funds)',
    player: 'empty',
    run: async (ctx) => {
      const amount = ctx.before + STAKE;
      const call = await ctx.move('correction debit above the balance', 'debit', {
        txId: ctx.tx('correction'),
        amount,
        kind: 'resettle',
        betId: ctx.tx('bet'),
      });
      refused(call, 'insufficient_funds');
      return `refused with ${call.outcome.status} insufficient_funds`;
    },
  },
  {
    id: 'debit.refusal-replayed-after-deposit',
    title: 'A refused debit replayed after a deposit gets the same refusal',
    contract: 'Debit rules (2: the refusal is stored under the original txId); Idempotency on the wallet',
    player: 'empty',
    run: async (ctx) => {
      const amount = ctx.before + STAKE;
      const betId = ctx.tx('bet');
      const correction = await ctx.move('correction debit above the balance', 'debit', {
        txId: ctx.tx('correction'),
        amount,
        kind: 'resettle',
        betId,
      });
      refused(correction, 'insufficient_funds');
      const stake = await ctx.move('stake above the balance', 'debit', {
        txId: ctx.tx('stake'),
        amount,
        kind: 'bet',
        betId,
      });
      refused(stake, 'insufficient_funds');
      // The contract has no deposit: a credit of the difference plays it.
      applied(
        await ctx.move('deposit (a credit of the difference)', 'credit', {
          txId: ctx.tx('deposit'),
          amount: STAKE,
          kind: 'adjustment',
        }),
        amount,
      );
      sameAnswer(await ctx.replay('the refused correction debit again, now covered', correction), correction);
      sameAnswer(await ctx.replay('the refused stake again, now covered', stake), stake);
      applied(
        await ctx.move('the deposit taken back', 'debit', {
          txId: ctx.tx('withdrawal'),
          amount: STAKE,
          kind: 'adjustment',
        }),
        ctx.before,
      );
      return 'both refusals were replayed unchanged with the balance covering them';
    },
  },
  {
    id: 'idempotency.replay',
    title: 'A repeated txId on each movement endpoint answers the stored outcome and moves nothing',
    contract: 'Idempotency on the wallet; Limits (other movements: resent with the same txId and body)',
    player: 'funded',
    run: async (ctx) => {
      const betId = ctx.tx('bet');
      const stake = await ctx.move('stake', 'debit', { txId: ctx.tx('stake'), amount: STAKE, kind: 'bet', betId });
      applied(stake, ctx.before - STAKE);
      sameAnswer(await ctx.replay('stake again', stake), stake);
      const payout = await ctx.move('payout', 'credit', {
        txId: ctx.tx('payout'),
        amount: STAKE,
        kind: 'payout',
        betId,
      });
      applied(payout, ctx.before);
      sameAnswer(await ctx.replay('payout again', payout), payout);
      const otherBet = ctx.tx('bet-2');
      const stake2 = ctx.tx('stake-2');
      applied(
        await ctx.move('second stake', 'debit', { txId: stake2, amount: STAKE, kind: 'bet', betId: otherBet }),
        ctx.before - STAKE,
      );
      const rollback = await ctx.move('rollback of the second stake', 'rollback', {
        txId: ctx.tx('rollback'),
        amount: STAKE,
        kind: 'rollback',
        betId: otherBet,
        ref: stake2,
      });
      applied(rollback, ctx.before);
      sameAnswer(await ctx.replay('rollback again', rollback), rollback);
      applied(await ctx.balance('balance after the replays'), ctx.before);
      return 'debit, credit and rollback replays answered their stored outcomes; the balance moved once each';
    },
  },
  {
    id: 'idempotency.duplicate-tx',
    title: 'A known txId with another amount, endpoint, kind or bet is refused with duplicate_tx',
    contract: 'Idempotency on the wallet; Wallet errors (duplicate_tx)',
    player: 'funded',
    run: async (ctx) => {
      const betId = ctx.tx('bet');
      const txId = ctx.tx('stake');
      applied(await ctx.move('stake', 'debit', { txId, amount: STAKE, kind: 'bet', betId }), ctx.before - STAKE);
      const variants: Array<[string, WalletEndpoint, MovementInput]> = [
        ['same txId, another amount', 'debit', { txId, amount: STAKE + 1, kind: 'bet', betId }],
        ['same txId, on /credit', 'credit', { txId, amount: STAKE, kind: 'payout', betId }],
        ['same txId, another kind', 'debit', { txId, amount: STAKE, kind: 'resettle', betId }],
        ['same txId, another bet', 'debit', { txId, amount: STAKE, kind: 'bet', betId: ctx.tx('other-bet') }],
      ];
      for (const [step, endpoint, movement] of variants)
        refused(await ctx.move(step, endpoint, movement), 'duplicate_tx');
      applied(await ctx.balance('balance after the duplicates'), ctx.before - STAKE);
      applied(
        await ctx.move('rollback of the stake', 'rollback', {
          txId: ctx.tx('rollback'),
          amount: STAKE,
          kind: 'rollback',
          betId,
          ref: txId,
        }),
        ctx.before,
      );
      return `${variants.length} changed replays refused with duplicate_tx, nothing moved`;
    },
  },
  {
    id: 'idempotency.concurrent',
    title: 'Concurrent deliveries of one txId move the money once',
    contract:
      'Idempotency on the wallet (applying the movement and storing the txId are one atomic unit); Limits (delivery is at least once)',
    player: 'funded',
    run: async (ctx) => {
      const betId = ctx.tx('bet');
      const body = { txId: ctx.tx('payout'), amount: STAKE, kind: 'payout' as const, betId };
      const calls = await ctx.concurrently(
        [1, 2, 3, 4, 5].map((n) => () => ctx.move(`payout, delivery ${n} of 5 at once`, 'credit', body)),
      );
      for (const call of calls) applied(call, ctx.before + STAKE);
      applied(await ctx.balance('balance after the deliveries'), ctx.before + STAKE);
      applied(
        await ctx.move('correction debit taking the payout back', 'debit', {
          txId: ctx.tx('resettle'),
          amount: STAKE,
          kind: 'resettle',
          betId,
        }),
        ctx.before,
      );
      return `5 concurrent deliveries all answered ${ctx.before + STAKE}; the balance moved once`;
    },
  },
  {
    id: 'errors.unknown-player',
    title: 'A stake for an unknown player is refused with player_not_found',
    contract: 'Wallet errors (player_not_found)',
    run: async (ctx) => {
      const playerId = ctx.tx('no-such-player');
      const call = await ctx.move('stake of an unknown player', 'debit', {
        txId: ctx.tx('stake'),
        playerId,
        amount: STAKE,
        kind: 'bet',
        betId: ctx.tx('bet'),
      });
      refused(call, 'player_not_found');
      return `refused with ${call.outcome.status} player_not_found`;
    },
  },
  {
    id: 'errors.blocked-player',
    title: 'A stake for a player blocked in the wallet is refused with 403 player_blocked and moves nothing',
    contract: 'Wallet errors (player blocked on partner side: 403 player_blocked)',
    player: 'blocked',
    run: async (ctx) => {
      const betId = ctx.tx('bet');
      const stake = ctx.tx('stake');
      const call = await ctx.move('stake of the blocked player', 'debit', {
        txId: stake,
        amount: STAKE,
        kind: 'bet',
        betId,
      });
      if (call.outcome.outcome === 'applied') {
        // The wallet took the stake: given back at once, as the service would give back a stake it refused.
        await ctx.move('rollback of the stake the wallet took', 'rollback', {
          txId: ctx.tx('rollback'),
          amount: STAKE,
          kind: 'rollback',
          betId,
          ref: stake,
        });
      }
      refused(call, 'player_blocked', 403);
      if (!ctx.balanceReadable) {
        return "refused with 403 player_blocked (the wallet refuses the blocked player's balance reads too, with player_blocked)";
      }
      applied(await ctx.balance('balance after the refusal'), ctx.before);
      return `refused with 403 player_blocked; the balance stayed at ${ctx.before}`;
    },
  },
];

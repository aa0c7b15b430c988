import { openPglite, openPostgres, type SqlDatabase, type SqlQueryable } from './database.ts';

/**
 * The reference wallet's ledger, in a real PostgreSQL: embedded PGlite by default, or a PostgreSQL server. Each
 * movement and the record of its txId are written in one transaction: that is what makes redelivery safe.
 */
export interface Player {
  id: string;
  balance: number;
  currency: string;
  blocked: boolean;
}

export interface StoredOutcome {
  status: number;
  body: Record<string, unknown>;
}

export interface MovementRequest {
  endpoint: 'debit' | 'credit' | 'rollback';
  txId: string;
  playerId: string;
  amount: number;
  currency: string;
  kind: string;
  betId: string | null;
  ref: string | null;
}

const SCHEMA = `
  create table if not exists players (
    id text primary key,
    balance bigint not null check (balance >= 0),
    currency text not null,
    blocked boolean not null default false
  );
  create table if not exists transactions (
    tx_id text primary key,
    endpoint text not null,
    player_id text not null,
    amount bigint not null,
    currency text not null,
    kind text not null,
    bet_id text,
    ref text,
    status integer not null,
    response jsonb not null,
    reversed boolean not null default false,
    created_at timestamptz not null default now()
  );
  -- rollbacks that arrived before (or instead of) the debit they name
  create table if not exists early_rollbacks (debit_tx_id text primary key, player_id text not null);
`;

/** Where the ledger lives: a PostgreSQL URL, else PGlite in a directory, else PGlite in memory. */
export interface StoreLocation {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
}

/** PostgreSQL's unique_violation: two deliveries of one txId raced to record it. */
const UNIQUE_VIOLATION = '23505';

export class WalletStore {
  readonly #db: SqlDatabase;

  private constructor(db: SqlDatabase) {
    this.#db = db;
  }

  static async open(location: StoreLocation = {}): Promise<WalletStore> {
    const db = location.databaseUrl ? openPostgres(location.databaseUrl) : await openPglite(location.dataDir);
    await db.exec(SCHEMA);
    return new WalletStore(db);
  }

  close(): Promise<void> {
    return this.#db.close();
  }

  async upsertPlayer(player: Player): Promise<void> {
    await this.#db.query(
      `insert into players (id, balance, currency, blocked) values ($1, $2, $3, $4)
       on conflict (id) do update set balance = excluded.balance, currency = excluded.currency, blocked = excluded.blocked`,
      [player.id, player.balance, player.currency, player.blocked],
    );
  }

  async player(id: string): Promise<Player | undefined> {
    const { rows } = await this.#db.query<Player>('select id, balance, currency, blocked from players where id = $1', [
      id,
    ]);
    return rows[0];
  }

  async transactions(): Promise<Array<Record<string, unknown>>> {
    const { rows } = await this.#db.query<Record<string, unknown>>(
      'select tx_id, endpoint, player_id, amount, kind, bet_id, ref, status, reversed from transactions order by created_at, tx_id',
    );
    return rows;
  }

  /**
   * Applies one movement exactly once: a known txId replays its stored outcome or is refused as duplicate_tx. When
   * two deliveries of a new txId race on a PostgreSQL server, the loser's transaction (money included) is undone by
   * the txId's unique key, and it answers with the winner's stored outcome.
   */
  async apply(request: MovementRequest): Promise<StoredOutcome> {
    try {
      return await this.#applyOnce(request);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      return this.#applyOnce(request);
    }
  }

  #applyOnce(request: MovementRequest): Promise<StoredOutcome> {
    return this.#db.transaction(async (tx) => {
      const known = await tx.query<MovementRequest & { status: number; response: Record<string, unknown> }>(
        `select endpoint, player_id as "playerId", amount, currency, kind, bet_id as "betId", ref, status, response
         from transactions where tx_id = $1`,
        [request.txId],
      );
      const previous = known.rows[0];
      if (previous) {
        return sameMovement(previous, request)
          ? { status: previous.status, body: previous.response }
          : failure(409, 'duplicate_tx', 'This txId was already used with other parameters.');
      }
      const outcome = await decide(tx, request);
      await tx.query(
        `insert into transactions (tx_id, endpoint, player_id, amount, currency, kind, bet_id, ref, status, response)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          request.txId,
          request.endpoint,
          request.playerId,
          request.amount,
          request.currency,
          request.kind,
          request.betId,
          request.ref,
          outcome.status,
          JSON.stringify(outcome.body),
        ],
      );
      return outcome;
    });
  }
}

function sameMovement(a: MovementRequest, b: MovementRequest): boolean {
  return (
    a.endpoint === b.endpoint &&
    a.playerId === b.playerId &&
    Number(a.amount) === b.amount &&
    a.currency === b.currency &&
    a.kind === b.kind &&
    (a.betId ?? null) === b.betId &&
    (a.ref ?? null) === b.ref
  );
}

export function failure(status: number, code: string, message: string): StoredOutcome {
  return { status, body: { error: { code, message } } };
}

async function decide(tx: SqlQueryable, request: MovementRequest): Promise<StoredOutcome> {
  const { rows } = await tx.query<Player>(
    'select id, balance, currency, blocked from players where id = $1 for update',
    [request.playerId],
  );
  const player = rows[0];
  if (!player) return failure(404, 'player_not_found', 'Unknown player.');
  // A block stops new stakes only: money owed to the player (payouts, refunds, rollbacks) is still paid.
  if (player.blocked && request.endpoint === 'debit' && request.kind === 'bet')
    return failure(403, 'player_blocked', 'The player is blocked.');
  if (player.currency !== request.currency)
    return failure(400, 'currency_mismatch', `The player's currency is ${player.currency}.`);

  switch (request.endpoint) {
    case 'debit':
      return debit(tx, player, request);
    case 'credit':
      return move(tx, player, request, request.amount);
    case 'rollback':
      return rollback(tx, player, request);
  }
}

async function debit(tx: SqlQueryable, player: Player, request: MovementRequest): Promise<StoredOutcome> {
  const early = await tx.query(
    'delete from early_rollbacks where debit_tx_id = $1 and player_id = $2 returning debit_tx_id',
    [request.txId, player.id],
  );
  if (early.rows.length > 0) return failure(409, 'rolled_back', 'This debit was already rolled back.');
  // All or nothing, for stakes and for corrections alike: no partial collection, no negative balance.
  if (player.balance < request.amount) return failure(402, 'insufficient_funds', 'The balance is too low.');
  return move(tx, player, request, -request.amount);
}

async function rollback(tx: SqlQueryable, player: Player, request: MovementRequest): Promise<StoredOutcome> {
  const { rows } = await tx.query<{
    amount: number;
    status: number;
    reversed: boolean;
    player_id: string;
    currency: string;
  }>(
    `select amount, status, reversed, player_id, currency from transactions where tx_id = $1 and endpoint = 'debit' for update`,
    [request.ref],
  );
  const stake = rows[0];
  if (!stake) {
    await tx.query('insert into early_rollbacks (debit_tx_id, player_id) values ($1, $2) on conflict do nothing', [
      request.ref,
      player.id,
    ]);
    return move(tx, player, request, 0);
  }
  // A rollback returns a stake to the player who paid it, never to anyone else.
  if (stake.player_id !== player.id || stake.currency !== request.currency) {
    return failure(409, 'ref_mismatch', 'The debit named in ref belongs to another player or currency.');
  }
  if (stake.status !== 200 || stake.reversed) return move(tx, player, request, 0);
  await tx.query('update transactions set reversed = true where tx_id = $1', [request.ref]);
  return move(tx, player, request, stake.amount);
}

async function move(tx: SqlQueryable, player: Player, request: MovementRequest, delta: number): Promise<StoredOutcome> {
  const { rows } = await tx.query<{ balance: number }>(
    'update players set balance = balance + $2 where id = $1 returning balance',
    [player.id, delta],
  );
  return { status: 200, body: { txId: request.txId, balance: rows[0]!.balance, currency: player.currency } };
}

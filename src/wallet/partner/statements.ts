import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/database.ts';
import { validationError } from '../../platform/errors.ts';
import type { Tenant } from '../../tenants/tables.ts';
import { walletErrors } from '../errors.ts';
import type { Movement } from '../ledger/movement.ts';
import type { Statement, StatementMovement } from '../schemas.ts';
import { directionOf, STATEMENT_FORMAT, statementCsv, statementJson, totalsOf } from './statement-format.ts';
import type { PublishedKey, StatementSigner } from './statement-signing.ts';
import * as store from './store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * A day's statement is served only this long after the day ends: a movement counts at the time its transaction
 * records it, and those of the day's last moments must have committed. After that, nothing can count on that day
 * any more (a movement counts when it is recorded, never earlier), so the statement never changes again.
 */
const STATEMENT_DELAY_MS = 5 * 60 * 1000;

/** A statement as served: its exact bytes, and their signature. */
export interface SignedStatement {
  /** A sandbox tenant's day not yet closed: the movements so far, which later ones will join. */
  preview: boolean;
  body: string;
  contentType: string;
  fileName: string;
  keyId: string;
  signature: string;
}

type StatementsDeps = { db: Db; clock: Clock; signer: StatementSigner };

/**
 * The daily reconciliation statements of a tenant (one environment of a casino): every movement that counted as
 * applied in a UTC day, with totals per kind, as JSON or CSV, signed (statement-signing.ts). What counts is what the
 * ledger counts everywhere else (the GGR report included): confirmed by the wallet, or resolved by an operator, at
 * the time that was recorded.
 */
export class Statements {
  readonly #deps: StatementsDeps;

  constructor(deps: StatementsDeps) {
    this.#deps = deps;
  }

  /** The public keys of the statements' signatures. */
  keys(): { keys: PublishedKey[] } {
    return { keys: this.#deps.signer.published() };
  }

  async statement(tenant: Tenant, day: string, format: 'json' | 'csv'): Promise<SignedStatement> {
    const from = dayStart(day);
    const to = new Date(from.getTime() + DAY_MS);
    const availableAt = new Date(to.getTime() + STATEMENT_DELAY_MS);
    const now = this.#deps.clock.now();
    // A sandbox's day under way is served as a preview up to now, so a casino can try its reconciliation on its
    // first day; a production statement exists only once its day can no longer change.
    const preview = now < availableAt && tenant.environment === 'sandbox' && now >= from;
    if (now < availableAt && !preview) {
      throw walletErrors.statement_not_ready({ day, availableAt: availableAt.toISOString() });
    }
    const until = preview && now < to ? now : to;
    const rows = await store.appliedBetween(this.#deps.db, tenant.id, from, until);
    const movements = rows.map((row): StatementMovement => {
      const sent = JSON.parse(row.body) as Movement;
      return {
        txId: row.tx_id,
        betId: row.bet_id,
        playerId: sent.playerId,
        kind: row.kind,
        endpoint: row.endpoint,
        direction: directionOf(row.endpoint),
        // a debit resolved in part counts for what was collected, as in the GGR report
        amount: row.amount - (row.written_off ?? 0),
        currency: sent.currency,
        ref: sent.ref ?? null,
        appliedAt: row.resolved_at!.toISOString(),
        status: row.status as StatementMovement['status'],
      };
    });
    const statement: Statement = {
      format: STATEMENT_FORMAT,
      tenantId: tenant.id,
      environment: tenant.environment,
      ...(preview ? { preview: true as const } : {}),
      currency: tenant.currency,
      day,
      from: from.toISOString(),
      to: until.toISOString(),
      keyId: this.#deps.signer.keyId,
      movements,
      ...totalsOf(movements),
    };
    const body = format === 'csv' ? statementCsv(statement) : statementJson(statement);
    const safeTenant = tenant.id.replace(/[^A-Za-z0-9_.-]/g, '_');
    return {
      preview,
      body,
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      fileName: `statement-${safeTenant}-${day}${preview ? '-preview' : ''}.${format}`,
      keyId: this.#deps.signer.keyId,
      signature: this.#deps.signer.sign(body),
    };
  }
}

/**
 * Midnight UTC of a day written YYYY-MM-DD; a day that does not exist (2026-02-30), or of the year 0 (which
 * PostgreSQL has not: it counts 1 BC), is refused.
 */
function dayStart(day: string): Date {
  const start = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(start.getTime()) || start.getUTCFullYear() < 1 || start.toISOString().slice(0, 10) !== day) {
    throw validationError('day', `${day} is not a day of the calendar (YYYY-MM-DD).`);
  }
  return start;
}

import type { AuditLog, AuditRecord } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import { notFound, validationError } from '../platform/errors.ts';
import { allows, tenantScope, type Permission } from '../platform/http/permissions.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import type { TenantService } from '../tenants/service.ts';
import { playerRecord } from './records.ts';
import { MAX_STAKE_FACTOR_BP, maxStakeOf } from './stake-factor.ts';
import type { Sessions } from './sessions.ts';
import * as playerStore from './store/players.ts';
import type { Player, PlayerStatus } from './tables.ts';
import { namedTenant } from './tenant-key.ts';

type PlayersDeps = { db: Db; clock: Clock; audit: AuditLog; tenants: TenantService; sessions: Sessions };

/** Players as staff see them: a player's status (platform block, local restriction), and look-ups by id. */
export class Players {
  readonly #deps: PlayersDeps;

  constructor(deps: PlayersDeps) {
    this.#deps = deps;
  }

  /** Platform block or a local restriction; operators act on their own tenant's players only. */
  async setStatus(call: StaffCall, playerId: string, status: PlayerStatus, reason: string | undefined) {
    return inTransaction(this.#deps.db, async (tx) => {
      const player = await this.#visiblePlayer(call, playerId, tx);
      const changed = await this.#changeStatus(tx, player, status, {
        actor: { type: 'staff', id: call.staff.id },
        action: 'player.status.set',
        ip: call.ip,
        details: { from: player.status, to: status, reason },
      });
      return changed.player;
    });
  }

  /**
   * The same change asked by a sandbox tenant's server for one of its own players, by the casino's id (the sandbox
   * controls, docs/sandbox-outcomes.md), so that its server sees the refusals of a blocked, paused or closed player;
   * another tenant's player is unknown. The caller has checked that the tenant is a sandbox. Audited with the tenant
   * as actor.
   */
  async setStatusOfTenant(
    tenantId: string,
    externalId: string,
    change: { status: PlayerStatus; reason: string | undefined; ip: string },
  ) {
    return inTransaction(this.#deps.db, async (tx) => {
      const player = await playerStore.findPlayerOfTenant(tx, tenantId, externalId);
      if (!player) throw notFound('Player');
      return this.#changeStatus(tx, player, change.status, {
        actor: { type: 'tenant', id: tenantId },
        action: 'sandbox.player.status.set',
        ip: change.ip,
        details: {
          tenantId,
          externalPlayerId: externalId,
          from: player.status,
          to: change.status,
          reason: change.reason,
        },
      });
    });
  }

  /** The player's status changed in the caller's transaction, its sessions told, the change audited. */
  async #changeStatus(
    tx: Tx,
    player: Player,
    status: PlayerStatus,
    audit: Pick<AuditRecord, 'actor' | 'action' | 'ip' | 'details'>,
  ) {
    const updated = await playerStore.setPlayerStatus(tx, player.id, status, this.#deps.clock.now());
    await this.#deps.sessions.playerStatusChanged(tx, player.id, status);
    await this.#deps.audit.record(tx, { ...audit, target: { type: 'player', id: player.id }, outcome: 'success' });
    return {
      player: playerRecord(updated, await namedTenant(this.#deps.tenants, player.tenant_id, tx)),
      previousStatus: player.status,
    };
  }

  /**
   * A player's stake factor, in basis points (10,000: the tenant's whole maximum stake). Risk is a trader's work
   * across tenants, so traders reach every player; operators their own tenant's. The player's sessions carry the
   * new factor from their next call (placement reads it there).
   */
  async setStakeFactor(call: StaffCall, playerId: string, factorBp: number, reason: string) {
    if (factorBp < 1 || factorBp > MAX_STAKE_FACTOR_BP) {
      throw validationError('factor', 'A stake factor is from 0.0001 to 10.');
    }
    return inTransaction(this.#deps.db, async (tx) => {
      const player = await this.#visiblePlayer(call, playerId, tx, { anyTenantFor: 'trading' });
      await playerStore.setStakeFactor(tx, playerId, factorBp, this.#deps.clock.now());
      this.#deps.sessions.playerLimitsChanged(tx);
      await this.#deps.audit.record(tx, {
        actor: { type: 'staff', id: call.staff.id },
        action: 'player.stake_factor.set',
        target: { type: 'player', id: playerId },
        outcome: 'success',
        ip: call.ip,
        details: { from: player.stake_factor_bp, to: factorBp, reason, tenantId: player.tenant_id },
      });
      const tenant = await this.#deps.tenants.current(player.tenant_id);
      return { id: playerId, tenantId: player.tenant_id, factorBp, maxStake: maxStakeOf(tenant.max_stake, factorBp) };
    });
  }

  /** For staff reads of a player's data in other domains (bets): the player, if the staff member may see it. */
  visiblePlayer(call: Pick<StaffCall, 'staff'>, playerId: string): Promise<Player> {
    return this.#visiblePlayer(call, playerId);
  }

  /**
   * For staff reads by the casino's own id of a player (unique within a tenant): the player, if the staff member
   * may see the tenant's players.
   */
  /** The casino's own ids of these players, by our ids. */
  externalIdsOf(playerIds: string[]): Promise<Map<string, string>> {
    return playerStore.externalIdsOf(this.#deps.db, [...new Set(playerIds)]);
  }

  async visiblePlayerByExternalId(call: Pick<StaffCall, 'staff'>, tenantId: string, externalId: string) {
    const scope = tenantScope(call.staff);
    const player =
      scope === null || scope === tenantId
        ? await playerStore.findPlayerOfTenant(this.#deps.db, tenantId, externalId)
        : undefined;
    if (!player) throw notFound('Player');
    return player;
  }

  /** The player the casino knows by `externalId` in the tenant (its own server asking): unknown otherwise. */
  async ofTenant(tenantId: string, externalId: string): Promise<Player> {
    const player = await playerStore.findPlayerOfTenant(this.#deps.db, tenantId, externalId);
    if (!player) throw notFound('Player');
    return player;
  }

  /**
   * A player the staff member may see: another tenant's player is answered as unknown. Staff holding
   * `anyTenantFor` see every tenant's players for that use.
   */
  async #visiblePlayer(
    call: Pick<StaffCall, 'staff'>,
    playerId: string,
    q?: Tx,
    options: { anyTenantFor?: Permission } = {},
  ): Promise<Player> {
    const player = await playerStore.findPlayer(q ?? this.#deps.db, playerId);
    const scope = options.anyTenantFor && allows(call.staff, options.anyTenantFor) ? null : tenantScope(call.staff);
    if (!player || (scope !== null && player.tenant_id !== scope)) throw notFound('Player');
    return player;
  }
}

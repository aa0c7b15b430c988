import type { Static } from 'typebox';
import type { AuditLog } from '../platform/audit/log.ts';
import { inTransaction, type Db, type Queryable } from '../platform/db/database.ts';
import type { Tenant } from './tables.ts';
import { notFound, platformErrors, validationError } from '../platform/errors.ts';
import { allows } from '../platform/http/permissions.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import { checkedEmbedOrigins, checkedWalletUrl, type OriginRules } from '../platform/urls.ts';
import { recordTenantChange } from './audit.ts';
import type { TenantCredentials } from './credentials.ts';
import { newTenantId, type TenantEnvironments } from './environments.ts';
import { tenantErrors } from './errors.ts';
import type { CreateTenantBody, TenantRecord, UpdateTenantBody } from './schemas.ts';
import type { TenantService } from './service.ts';
import * as store from './store.ts';

/** Changing any of these after the first money movement would send owed money somewhere else. */
const WALLET_IDENTITY = ['walletUrl', 'walletMode', 'currency'] as const;
/** Settings only the platform changes: an operator must not lift the checks on its own adjustments. */
const PLATFORM_ONLY = [...WALLET_IDENTITY, 'status', 'adjustments'] as const;

type TenantSettingsDeps = {
  db: Db;
  audit: AuditLog;
  originRules: OriginRules;
  tenants: TenantService;
  environments: TenantEnvironments;
  credentials: TenantCredentials;
};

/**
 * Tenant administration by staff (operator staff of the tenant, or a platform administrator naming it): a tenant
 * created directly, its settings read and changed.
 */
export class TenantSettings {
  readonly #deps: TenantSettingsDeps;

  constructor(deps: TenantSettingsDeps) {
    this.#deps = deps;
  }

  /** A tenant for an operator that is not behind an aggregator: active at once, credentials returned once. */
  async createTenant(call: StaffCall, body: CreateTenantBody) {
    const walletUrl = checkedWalletUrl('walletUrl', body.walletUrl, this.#deps.originRules);
    const embedOrigins = checkedEmbedOrigins(body.embedOrigins ?? [], this.#deps.originRules);
    const tenantId = newTenantId();
    return inTransaction(this.#deps.db, async (tx) => {
      const { walletSecret } = await this.#deps.environments.createEnvironment(tx, {
        tenantId,
        clientId: null,
        environment: 'production',
        name: body.name,
        currency: body.currency,
        locale: body.locale,
        jurisdiction: body.jurisdiction,
        embedOrigins,
        walletUrl,
      });
      await store.updateTenant(tx, tenantId, { status: 'active' });
      const key = await this.#deps.credentials.issueIntegrationKey(tx, tenantId);
      await recordTenantChange(this.#deps.audit, tx, call, 'tenant.create', tenantId, {
        name: body.name,
        currency: body.currency,
        walletUrl,
      });
      return { tenant: await this.#view(tx, tenantId), walletSecret, ...key };
    });
  }

  async tenant(tenantId: string): Promise<Static<typeof TenantRecord>> {
    return this.#view(this.#deps.db, tenantId);
  }

  /** Ordinary settings; wallet URL, wallet mode and currency are platform-only and lock at first money movement. */
  async updateTenant(call: StaffCall, tenantId: string, body: UpdateTenantBody) {
    const platformOnly = PLATFORM_ONLY.filter((field) => body[field] !== undefined);
    if (platformOnly.length > 0 && !allows(call.staff, 'platform')) {
      throw platformErrors.forbidden(undefined, `Only the platform can change ${platformOnly.join(', ')}.`);
    }
    if (body.limits && (body.limits.minStake > body.limits.maxStake || body.limits.maxStake > body.limits.maxPayout)) {
      throw validationError('limits', 'Limits must satisfy minStake <= maxStake <= maxPayout.');
    }
    if (body.adjustments && body.adjustments.approvalAbove > body.adjustments.maxAmount) {
      throw validationError('adjustments.approvalAbove', 'The approval threshold is at most the maximum adjustment.');
    }
    const changes = this.#settingColumns(body);
    return inTransaction(this.#deps.db, async (tx) => {
      const tenant = await store.findTenant(tx, tenantId, { lock: 'update' });
      if (!tenant) throw notFound('Tenant');
      const changed = WALLET_IDENTITY.filter(
        (field) => body[field] !== undefined && identityValue(tenant, field) !== changes[fieldColumn(field)],
      );
      if (tenant.first_financial_at && changed.length > 0) {
        throw tenantErrors.wallet_identity_locked(
          { reason: 'wallet_identity_locked', fields: changed },
          `The tenant has moved money; ${changed.join(', ')} can no longer change through settings.`,
        );
      }
      await store.updateTenant(tx, tenantId, changes);
      this.#deps.tenants.changed(tx);
      if (body.status === 'suspended') await this.#deps.tenants.suspended(tx, [tenantId]);
      const platformChanges = Object.fromEntries(
        platformOnly.map((field) => [field, { from: platformValue(tenant, field), to: body[field] }]),
      );
      await recordTenantChange(this.#deps.audit, tx, call, 'tenant.update', tenantId, {
        fields: Object.keys(body),
        changes: platformChanges,
      });
      return this.#view(tx, tenantId);
    });
  }

  #settingColumns(body: UpdateTenantBody) {
    return {
      ...(body.embedOrigins !== undefined
        ? { embed_origins: JSON.stringify(checkedEmbedOrigins(body.embedOrigins, this.#deps.originRules)) }
        : {}),
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.locale !== undefined ? { locale: body.locale } : {}),
      ...(body.walletUrl !== undefined
        ? { wallet_url: checkedWalletUrl('walletUrl', body.walletUrl, this.#deps.originRules) }
        : {}),
      ...(body.walletMode !== undefined ? { wallet_mode: body.walletMode } : {}),
      ...(body.currency !== undefined ? { currency: body.currency } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
      ...(body.limits !== undefined ? limitColumns(body.limits) : {}),
      ...(body.adjustments !== undefined
        ? {
            max_adjustment: body.adjustments.maxAmount,
            adjustment_approval_above: body.adjustments.approvalAbove,
          }
        : {}),
    };
  }

  async #view(q: Queryable, tenantId: string): Promise<Static<typeof TenantRecord>> {
    const tenant = await this.#deps.tenants.get(tenantId, q);
    const [key] = await store.liveIntegrationKeys(q, [tenantId]);
    return {
      id: tenant.id,
      clientId: tenant.client_id,
      environment: tenant.environment,
      name: tenant.name,
      currency: tenant.currency,
      locale: tenant.locale,
      jurisdiction: tenant.jurisdiction,
      embedOrigins: tenant.embed_origins,
      walletUrl: tenant.wallet_url,
      walletMode: tenant.wallet_mode,
      status: tenant.status,
      createdAt: tenant.created_at.toISOString(),
      firstFinancialAt: tenant.first_financial_at?.toISOString() ?? null,
      limits: {
        minStake: tenant.min_stake,
        maxStake: tenant.max_stake,
        maxPayout: tenant.max_payout,
        maxSelectionLiability: tenant.max_selection_liability,
        maxEventLiability: tenant.max_event_liability,
      },
      adjustments: { maxAmount: tenant.max_adjustment, approvalAbove: tenant.adjustment_approval_above },
      integrationKey: key ? { keyId: key.id, createdAt: key.created_at.toISOString() } : null,
    };
  }
}

function limitColumns(limits: NonNullable<UpdateTenantBody['limits']>) {
  return {
    min_stake: limits.minStake,
    max_stake: limits.maxStake,
    max_payout: limits.maxPayout,
    max_selection_liability: limits.maxSelectionLiability,
    max_event_liability: limits.maxEventLiability,
  };
}

function fieldColumn(field: (typeof WALLET_IDENTITY)[number]): 'wallet_url' | 'wallet_mode' | 'currency' {
  return field === 'walletUrl' ? 'wallet_url' : field === 'walletMode' ? 'wallet_mode' : 'currency';
}

/** A platform-only setting as it was, for the audit trail. */
function platformValue(tenant: Tenant, field: (typeof PLATFORM_ONLY)[number]) {
  if (field === 'status') return tenant.status;
  if (field === 'adjustments') {
    return { maxAmount: tenant.max_adjustment, approvalAbove: tenant.adjustment_approval_above };
  }
  return identityValue(tenant, field);
}

function identityValue(tenant: Tenant, field: (typeof WALLET_IDENTITY)[number]): string {
  return tenant[fieldColumn(field)];
}

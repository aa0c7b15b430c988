import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { sha256Hex } from '../platform/crypto.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import type { AggregatorAuthorization, Client } from './tables.ts';
import { notFound, platformErrors, validationError, type ErrorFactory } from '../platform/errors.ts';
import type { AggregatorPrincipal, AggregatorScope } from '../platform/http/principals.ts';
import type { IdempotencyScope, IdempotencyService, StoredResponse } from '../platform/idempotency/service.ts';
import { checkedEmbedOrigins, checkedWalletUrl, type OriginRules } from '../platform/urls.ts';
import type { Environment } from '../tenants/schemas.ts';
import { newTenantId, type TenantService } from '../tenants/service.ts';
import type { WalletClient } from '../wallet/client.ts';
import { validateWallet } from '../wallet/validation.ts';
import { aggregatorErrors } from './errors.ts';
import { clientRecord } from './records.ts';
import {
  CLIENTS_PAGE,
  CREDENTIALS_REPLAY_SECONDS,
  type ActivateClientBody,
  type ClientRecord,
  type CreateClientBody,
  type ListClientsQuery,
  type RotateCredentialsBody,
} from './schemas.ts';
import * as store from './store.ts';

export interface IdempotentCall {
  key: string;
  ip: string;
}

const newClientId = (): string => `cl_${randomBytes(8).toString('hex')}`;
const unauthorizedKey = (reason: string, message: string) => platformErrors.unauthorized({ reason }, message);

/** What the aggregator key check can refuse with (details.reason), for the API documents. */
export const AGGREGATOR_KEY_ERRORS: readonly ErrorFactory[] = [platformErrors.unauthorized];

/** The aggregator API (contract section a): provisioning, activation and rotation of a casino's environments. */
export class ProvisioningService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #audit: AuditLog;
  readonly #idempotency: IdempotencyService;
  readonly #tenants: TenantService;
  readonly #wallets: WalletClient;
  readonly #originRules: OriginRules;
  readonly #sandboxesEnabled: boolean;

  constructor(deps: {
    db: Db;
    clock: Clock;
    audit: AuditLog;
    idempotency: IdempotencyService;
    tenants: TenantService;
    wallets: WalletClient;
    originRules: OriginRules;
    sandboxesEnabled: boolean;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#audit = deps.audit;
    this.#idempotency = deps.idempotency;
    this.#tenants = deps.tenants;
    this.#wallets = deps.wallets;
    this.#originRules = deps.originRules;
    this.#sandboxesEnabled = deps.sandboxesEnabled;
  }

  /** The key must be live and its aggregator's authorization enabled and unexpired. */
  async authenticate(key: string): Promise<AggregatorPrincipal> {
    const row = await store.findKeyByHash(this.#db, sha256Hex(key));
    if (!row) throw unauthorizedKey('invalid_key', 'The API key is not valid.');
    const now = this.#clock.now();
    if (row.revoked_at) throw unauthorizedKey('key_revoked', 'The API key has been revoked.');
    if (row.expires_at <= now) throw unauthorizedKey('key_expired', 'The API key has expired.');
    checkAuthorizationLive(await store.findAuthorization(this.#db, row.aggregator_id), now);
    return { aggregatorId: row.aggregator_id, keyId: row.id, scopes: row.scopes as AggregatorScope[] };
  }

  // ---- CreateClient ----

  async createClient(
    principal: AggregatorPrincipal,
    call: IdempotentCall,
    body: CreateClientBody,
  ): Promise<StoredResponse & { replayed: boolean }> {
    const wallets = this.#checkClientShape(body);
    const scope = this.#scope(principal, call, 'POST /clients', body);
    return this.#idempotency.run(scope, () =>
      inTransaction(this.#db, async (tx) => {
        // Locking the authorization serialises this aggregator's creations, so the quota holds under concurrency.
        const authorization = checkAuthorizationLive(
          await store.findAuthorization(tx, principal.aggregatorId, { lock: true }),
          this.#clock.now(),
        );
        checkWithinAuthorization(authorization, {
          ...body,
          walletOrigins: [wallets.production.origin, wallets.sandbox.origin],
        });
        const existing = await store.findClientByExternalId(tx, principal.aggregatorId, body.externalId);
        if (existing) {
          throw aggregatorErrors.duplicate_external_id(
            { clientId: existing.id },
            'You already have a client with this externalId.',
          );
        }
        const count = await store.countClients(tx, principal.aggregatorId);
        if (count >= authorization.client_quota) {
          throw aggregatorErrors.quota_exceeded(
            { quota: authorization.client_quota },
            'The client quota of your authorization is used up.',
          );
        }
        const response = await this.#insertClient(tx, principal, body, wallets);
        await this.#record(tx, principal, call, 'client.create', { type: 'client', id: response.id }, 'success', {
          externalId: body.externalId,
          reason: body.reason,
        });
        const stored = { status: 201, body: response };
        await this.#idempotency.complete(tx, scope, stored);
        return stored;
      }),
    );
  }

  /** Field rules the schema cannot express: exact origins, wallet URLs, and two different wallets. */
  #checkClientShape(body: CreateClientBody) {
    checkedEmbedOrigins(body.embedOrigins, this.#originRules);
    const url = (field: 'productionWalletUrl' | 'sandboxWalletUrl') => {
      const walletUrl = checkedWalletUrl(field, body[field], this.#originRules);
      return { url: walletUrl, origin: new URL(walletUrl).origin };
    };
    const production = url('productionWalletUrl');
    const sandbox = url('sandboxWalletUrl');
    if (production.url === sandbox.url) {
      throw validationError(
        'sandboxWalletUrl',
        'The sandbox wallet URL must differ from the production one (and be backed by a separate balance).',
      );
    }
    return { production, sandbox };
  }

  async #insertClient(
    tx: Tx,
    principal: AggregatorPrincipal,
    body: CreateClientBody,
    wallets: { production: { url: string }; sandbox: { url: string } },
  ) {
    const now = this.#clock.now();
    const clientId = newClientId();
    await store.insertClient(tx, {
      id: clientId,
      aggregator_id: principal.aggregatorId,
      external_id: body.externalId,
      name: body.name,
      legal_name: body.legalName,
      brand_name: body.brandName,
      currency: body.currency,
      jurisdiction: body.jurisdiction,
      locale: body.locale,
      territories: JSON.stringify(body.territories),
      embed_origins: JSON.stringify(body.embedOrigins),
      status: 'suspended',
      created_at: now,
    });
    const productionId = newTenantId();
    const environment = (environment: Environment, tenantId: string, walletUrl: string) =>
      this.#tenants.createEnvironment(tx, {
        tenantId,
        clientId,
        environment,
        name: environment === 'production' ? body.brandName : `${body.brandName} (sandbox)`,
        currency: body.currency,
        locale: body.locale,
        jurisdiction: body.jurisdiction,
        embedOrigins: body.embedOrigins,
        walletUrl,
      });
    const production = await environment('production', productionId, wallets.production.url);
    const sandbox = await environment('sandbox', `${productionId}-sandbox`, wallets.sandbox.url);
    return {
      id: clientId,
      externalId: body.externalId,
      status: 'suspended' as const,
      nextAction: 'install_wallet_secrets_then_activate' as const,
      credentialsReplaySeconds: CREDENTIALS_REPLAY_SECONDS,
      production: { tenantId: productionId, walletSecret: production.walletSecret },
      sandbox: { tenantId: `${productionId}-sandbox`, walletSecret: sandbox.walletSecret },
    };
  }

  // ---- reads ----

  async listClients(
    principal: AggregatorPrincipal,
    query: ListClientsQuery,
  ): Promise<{ clients: Static<typeof ClientRecord>[]; nextCursor: string }> {
    const afterId = query.cursor ? decodeCursor(query.cursor) : undefined;
    const limit = query.limit ?? CLIENTS_PAGE;
    const rows = await store.listClients(this.#db, principal.aggregatorId, {
      limit,
      ...(afterId ? { afterId } : {}),
      ...(query.externalId ? { externalId: query.externalId } : {}),
    });
    const page = rows.slice(0, limit);
    const clients = [];
    for (const client of page) clients.push(await clientRecord(this.#tenants, client));
    const more = rows.length > limit;
    return { clients, nextCursor: more ? encodeCursor(page.at(-1)!.id) : '' };
  }

  async getClient(principal: AggregatorPrincipal, clientId: string): Promise<Static<typeof ClientRecord>> {
    return clientRecord(this.#tenants, await this.#ownedClient(this.#db, principal, clientId));
  }

  /** Another aggregator's client is answered exactly like one that does not exist. */
  async #ownedClient(q: Db | Tx, principal: AggregatorPrincipal, clientId: string, lock = false): Promise<Client> {
    const client = await store.findClient(q, clientId, { lock });
    if (!client || client.aggregator_id !== principal.aggregatorId) throw notFound('Client');
    return client;
  }

  // ---- ActivateClient ----

  async activateClient(
    principal: AggregatorPrincipal,
    call: IdempotentCall,
    clientId: string,
    body: ActivateClientBody,
  ): Promise<StoredResponse & { replayed: boolean }> {
    const scope = this.#scope(principal, call, `POST /clients/${clientId}/activate`, body);
    return this.#idempotency.run(scope, async () => {
      const snapshot = await this.#activationPreconditions(principal, clientId);
      await this.#validateWallets(snapshot.client, body, principal, call);
      return inTransaction(this.#db, async (tx) => {
        await this.#recheckUnchanged(tx, principal, snapshot);
        const response = await this.#activate(tx, snapshot.client);
        await this.#record(tx, principal, call, 'client.activate', { type: 'client', id: clientId }, 'success', {
          reason: body.reason,
        });
        const stored = { status: 200, body: response };
        await this.#idempotency.complete(tx, scope, stored);
        return stored;
      });
    });
  }

  async #activationPreconditions(principal: AggregatorPrincipal, clientId: string) {
    const client = await this.#ownedClient(this.#db, principal, clientId);
    checkNoPlatformHold(client);
    if (!this.#sandboxesEnabled) {
      throw aggregatorErrors.deployment_not_configured({ setting: 'INTEGRATION_SANDBOXES' });
    }
    if (client.status === 'active') throw aggregatorErrors.already_active();
    const authorization = checkAuthorizationLive(
      await store.findAuthorization(this.#db, principal.aggregatorId),
      this.#clock.now(),
    );
    if (!authorization.auto_activation) {
      throw aggregatorErrors.activation_not_permitted();
    }
    const tenants = await this.#tenants.environmentsOfClient(client.id);
    checkWithinAuthorization(authorization, {
      currency: client.currency,
      jurisdiction: client.jurisdiction,
      territories: client.territories,
      walletOrigins: tenants.map((tenant) => new URL(tenant.wallet_url).origin),
    });
    return { client, authorizationVersion: authorization.version };
  }

  /** Both wallets, production first; the first failing check is reported and nothing is activated. */
  async #validateWallets(
    client: Client,
    body: ActivateClientBody,
    principal: AggregatorPrincipal,
    call: IdempotentCall,
  ) {
    const tenants = await this.#tenants.environmentsOfClient(client.id);
    for (const environment of ['production', 'sandbox'] as const) {
      const tenant = tenants.find((candidate) => candidate.environment === environment)!;
      const failure = await validateWallet(this.#wallets, {
        walletUrl: tenant.wallet_url,
        secret: this.#tenants.walletSecret(tenant),
        currency: client.currency,
        playerId: environment === 'production' ? body.productionPlayerId : body.sandboxPlayerId,
      });
      if (failure) {
        await this.#record(this.#db, principal, call, 'client.activate', { type: 'client', id: client.id }, 'failure', {
          environment,
          ...failure,
        });
        throw aggregatorErrors.wallet_validation_failed(
          { environment, ...failure },
          `The ${environment} wallet failed the ${failure.check} check on /${failure.endpoint}: ${failure.reason}.`,
        );
      }
    }
  }

  /** Anything that changed while the wallets were being checked voids the activation. */
  async #recheckUnchanged(
    tx: Tx,
    principal: AggregatorPrincipal,
    snapshot: { client: Client; authorizationVersion: number },
  ) {
    const changed = (what: string) =>
      aggregatorErrors.configuration_changed(
        { changed: what },
        `The ${what} changed during activation; nothing was activated. Read the client and retry with a new Idempotency-Key.`,
      );
    const client = await store.findClient(tx, snapshot.client.id, { lock: true });
    if (!client || client.config_version !== snapshot.client.config_version) throw changed('client');
    const authorization = await store.findAuthorization(tx, principal.aggregatorId, { lock: true });
    if (!authorization || authorization.version !== snapshot.authorizationVersion) throw changed('authorization');
    const key = await store.findKey(tx, principal.aggregatorId, principal.keyId, { lock: true });
    if (!key || key.revoked_at || key.expires_at <= this.#clock.now()) throw changed('API key');
  }

  async #activate(tx: Tx, client: Client) {
    const tenants = await this.#tenants.environmentsOfClient(client.id, tx);
    const issued = async (environment: Environment) => {
      const tenant = tenants.find((candidate) => candidate.environment === environment)!;
      const key = await this.#tenants.issueIntegrationKey(tx, tenant.id);
      return { tenantId: tenant.id, environment, ...key };
    };
    const production = { ...(await issued('production')), environment: 'production' as const };
    const sandbox = { ...(await issued('sandbox')), environment: 'sandbox' as const };
    await store.updateClient(tx, client.id, { status: 'active', activated_at: this.#clock.now() });
    await this.#tenants.setClientEnvironmentsStatus(tx, client.id, 'active');
    return {
      id: client.id,
      status: 'active' as const,
      credentialsReplaySeconds: CREDENTIALS_REPLAY_SECONDS,
      production,
      sandbox,
    };
  }

  // ---- RotateCredentials ----

  async rotateCredentials(
    principal: AggregatorPrincipal,
    call: IdempotentCall,
    clientId: string,
    body: RotateCredentialsBody,
  ): Promise<StoredResponse & { replayed: boolean }> {
    const scope = this.#scope(principal, call, `POST /clients/${clientId}/credentials/rotate`, body);
    return this.#idempotency.run(scope, () =>
      inTransaction(this.#db, async (tx) => {
        const client = await this.#ownedClient(tx, principal, clientId, true);
        checkNoPlatformHold(client);
        if (client.status !== 'active') {
          throw aggregatorErrors.not_active();
        }
        const tenant = (await this.#tenants.environmentsOfClient(client.id, tx)).find(
          (candidate) => candidate.environment === body.environment,
        )!;
        const revokedKeys = await this.#tenants.revokeIntegrationKeys(tx, [tenant.id]);
        const key = await this.#tenants.issueIntegrationKey(tx, tenant.id);
        await this.#record(
          tx,
          principal,
          call,
          'client.credentials.rotate',
          { type: 'tenant', id: tenant.id },
          'success',
          {
            clientId,
            environment: body.environment,
            revokedKeys,
            reason: body.reason,
          },
        );
        const stored = {
          status: 200,
          body: {
            id: client.id,
            environment: body.environment,
            tenantId: tenant.id,
            ...key,
            revokedKeys,
            credentialsReplaySeconds: CREDENTIALS_REPLAY_SECONDS,
          },
        };
        await this.#idempotency.complete(tx, scope, stored);
        return stored;
      }),
    );
  }

  /** Every aggregator action is audited with the key that made it. */
  #record(
    q: Db | Tx,
    principal: AggregatorPrincipal,
    call: IdempotentCall,
    action: string,
    target: { type: string; id: string },
    outcome: 'success' | 'failure',
    details: Record<string, unknown>,
  ) {
    return this.#audit.record(q, {
      actor: { type: 'aggregator', id: principal.aggregatorId },
      action,
      target,
      outcome,
      ip: call.ip,
      details: { keyId: principal.keyId, ...details },
    });
  }

  #scope(principal: AggregatorPrincipal, call: IdempotentCall, operation: string, body: unknown): IdempotencyScope {
    return {
      scope: `aggregator:${principal.aggregatorId}`,
      key: call.key,
      credentialId: principal.keyId,
      operation,
      body,
    };
  }
}

/** What the platform holds (a suspension, revoked credentials) only the platform lifts. */
function checkNoPlatformHold(client: Client): void {
  if (client.platform_suspended_at) {
    throw aggregatorErrors.suspended_by_platform();
  }
  if (client.credentials_revoked_at) {
    throw aggregatorErrors.credentials_revoked_by_platform();
  }
}

/** The authorization exists, is enabled and has not expired; otherwise the aggregator has no API access. */
function checkAuthorizationLive(
  authorization: AggregatorAuthorization | undefined,
  now: Date,
): AggregatorAuthorization {
  if (!authorization) throw unauthorizedKey('authorization_missing', 'Your aggregator has no authorization yet.');
  if (!authorization.enabled)
    throw unauthorizedKey('authorization_disabled', 'Your aggregator authorization is disabled.');
  if (authorization.expires_at <= now)
    throw unauthorizedKey('authorization_expired', 'Your aggregator authorization has expired.');
  return authorization;
}

function checkWithinAuthorization(
  authorization: AggregatorAuthorization,
  wanted: { currency: string; jurisdiction: string; territories: string[]; walletOrigins: string[] },
): void {
  const refuse = (field: string, value: string) =>
    aggregatorErrors.not_authorized({ field, value }, `Your authorization does not cover ${field} ${value}.`);
  if (!authorization.currencies.includes(wanted.currency)) throw refuse('currency', wanted.currency);
  if (!authorization.jurisdictions.includes(wanted.jurisdiction)) throw refuse('jurisdiction', wanted.jurisdiction);
  const territory = wanted.territories.find((candidate) => !authorization.territories.includes(candidate));
  if (territory) throw refuse('territories', territory);
  const origin = wanted.walletOrigins.find((candidate) => !authorization.wallet_origins.includes(candidate));
  if (origin) throw refuse('walletOrigin', origin);
}

/** Cursors are opaque to callers: the last id of the page, base64url-encoded. */
function encodeCursor(lastId: string): string {
  return Buffer.from(`after:${lastId}`).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!decoded.startsWith('after:') || decoded.length <= 6)
    throw validationError('cursor', 'The cursor is not one this API returned.');
  return decoded.slice(6);
}

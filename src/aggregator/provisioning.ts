import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import { validationError } from '../platform/errors.ts';
import type { AggregatorPrincipal } from '../platform/http/principals.ts';
import type { IdempotencyService, StoredResponse } from '../platform/idempotency/service.ts';
import { checkedEmbedOrigins, checkedWalletUrl, type OriginRules } from '../platform/urls.ts';
import type { TenantCredentials } from '../tenants/credentials.ts';
import { newTenantId, type TenantEnvironments } from '../tenants/environments.ts';
import type { Environment } from '../tenants/schemas.ts';
import { checkAuthorizationLive } from './authentication.ts';
import { idempotencyScope, recordAggregatorAction, type IdempotentCall } from './calls.ts';
import { checkWithinAuthorization, ownedClient } from './checks.ts';
import { aggregatorErrors } from './errors.ts';
import { clientRecord } from './records.ts';
import {
  CLIENTS_PAGE,
  CREDENTIALS_REPLAY_SECONDS,
  type ClientRecord,
  type CreateClientBody,
  type ListClientsQuery,
} from './schemas.ts';
import * as store from './store.ts';

const newClientId = (): string => `cl_${randomBytes(8).toString('hex')}`;

type ClientProvisioningDeps = {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  idempotency: IdempotencyService;
  environments: TenantEnvironments;
  credentials: TenantCredentials;
  originRules: OriginRules;
};

/**
 * CreateClient, ListClients and GetClient of the aggregator API: a casino (client) created with its two
 * environments, suspended until activation, and read back.
 */
export class ClientProvisioning {
  readonly #deps: ClientProvisioningDeps;

  constructor(deps: ClientProvisioningDeps) {
    this.#deps = deps;
  }

  async createClient(
    principal: AggregatorPrincipal,
    call: IdempotentCall,
    body: CreateClientBody,
  ): Promise<StoredResponse & { replayed: boolean }> {
    const wallets = this.#checkClientShape(body);
    const scope = idempotencyScope(principal, call, 'POST /clients', body);
    return this.#deps.idempotency.run(scope, () =>
      inTransaction(this.#deps.db, async (tx) => {
        // Locking the authorization serialises this aggregator's creations, so the quota holds under concurrency.
        const authorization = checkAuthorizationLive(
          await store.findAuthorization(tx, principal.aggregatorId, { lock: true }),
          this.#deps.clock.now(),
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
        await recordAggregatorAction(
          this.#deps.audit,
          tx,
          principal,
          call,
          'client.create',
          { type: 'client', id: response.id },
          'success',
          { externalId: body.externalId, reason: body.reason },
        );
        const stored = { status: 201, body: response };
        await this.#deps.idempotency.complete(tx, scope, stored);
        return stored;
      }),
    );
  }

  /** Field rules the schema cannot express: exact origins, wallet URLs, and two different wallets. */
  #checkClientShape(body: CreateClientBody) {
    checkedEmbedOrigins(body.embedOrigins, this.#deps.originRules);
    const url = (field: 'productionWalletUrl' | 'sandboxWalletUrl') => {
      const walletUrl = checkedWalletUrl(field, body[field], this.#deps.originRules);
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
    const now = this.#deps.clock.now();
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
      this.#deps.environments.createEnvironment(tx, {
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

  async listClients(
    principal: AggregatorPrincipal,
    query: ListClientsQuery,
  ): Promise<{ clients: Static<typeof ClientRecord>[]; nextCursor: string }> {
    const afterId = query.cursor ? decodeCursor(query.cursor) : undefined;
    const limit = query.limit ?? CLIENTS_PAGE;
    const rows = await store.listClients(this.#deps.db, principal.aggregatorId, {
      limit,
      ...(afterId ? { afterId } : {}),
      ...(query.externalId ? { externalId: query.externalId } : {}),
    });
    const page = rows.slice(0, limit);
    const clients = [];
    for (const client of page)
      clients.push(await clientRecord(this.#deps.environments, this.#deps.credentials, client));
    const more = rows.length > limit;
    return { clients, nextCursor: more ? encodeCursor(page.at(-1)!.id) : '' };
  }

  async getClient(principal: AggregatorPrincipal, clientId: string): Promise<Static<typeof ClientRecord>> {
    const client = await ownedClient(this.#deps.db, principal, clientId);
    return clientRecord(this.#deps.environments, this.#deps.credentials, client);
  }
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

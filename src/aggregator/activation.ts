import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import type { AggregatorPrincipal } from '../platform/http/principals.ts';
import type { IdempotencyService, StoredResponse } from '../platform/idempotency/service.ts';
import type { TenantCredentials } from '../tenants/credentials.ts';
import type { TenantEnvironments } from '../tenants/environments.ts';
import type { Environment } from '../tenants/schemas.ts';
import type { TenantService } from '../tenants/service.ts';
import type { WalletClient } from '../wallet/delivery/client.ts';
import { validateWallet } from '../wallet/validation.ts';
import { checkAuthorizationLive } from './authentication.ts';
import { idempotencyScope, recordAggregatorAction, type IdempotentCall } from './calls.ts';
import { checkNoPlatformHold, checkWithinAuthorization, ownedClient } from './checks.ts';
import { aggregatorErrors } from './errors.ts';
import { CREDENTIALS_REPLAY_SECONDS, type ActivateClientBody } from './schemas.ts';
import type { Client } from './tables.ts';
import * as store from './store.ts';

type ClientActivationDeps = {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  idempotency: IdempotencyService;
  tenants: TenantService;
  environments: TenantEnvironments;
  credentials: TenantCredentials;
  wallets: WalletClient;
  sandboxesEnabled: boolean;
};

/**
 * ActivateClient of the aggregator API: both wallets validated, then one integration key issued per environment.
 * No transaction is held across the network: the preconditions are read, the wallets checked with no transaction
 * open, then one transaction re-reads client, authorization and key and compares versions before issuing keys.
 */
export class ClientActivation {
  readonly #deps: ClientActivationDeps;

  constructor(deps: ClientActivationDeps) {
    this.#deps = deps;
  }

  async activateClient(
    principal: AggregatorPrincipal,
    call: IdempotentCall,
    clientId: string,
    body: ActivateClientBody,
  ): Promise<StoredResponse & { replayed: boolean }> {
    const scope = idempotencyScope(principal, call, `POST /clients/${clientId}/activate`, body);
    return this.#deps.idempotency.run(scope, async () => {
      const snapshot = await this.#preconditions(principal, clientId);
      await this.#validateWallets(snapshot.client, body, principal, call);
      return inTransaction(this.#deps.db, async (tx) => {
        await this.#recheckUnchanged(tx, principal, snapshot);
        const response = await this.#activate(tx, snapshot.client);
        await recordAggregatorAction(
          this.#deps.audit,
          tx,
          principal,
          call,
          'client.activate',
          { type: 'client', id: clientId },
          'success',
          { reason: body.reason },
        );
        const stored = { status: 200, body: response };
        await this.#deps.idempotency.complete(tx, scope, stored);
        return stored;
      });
    });
  }

  async #preconditions(principal: AggregatorPrincipal, clientId: string) {
    const client = await ownedClient(this.#deps.db, principal, clientId);
    checkNoPlatformHold(client);
    if (!this.#deps.sandboxesEnabled) {
      throw aggregatorErrors.deployment_not_configured({ setting: 'INTEGRATION_SANDBOXES' });
    }
    if (client.status === 'active') throw aggregatorErrors.already_active();
    const authorization = checkAuthorizationLive(
      await store.findAuthorization(this.#deps.db, principal.aggregatorId),
      this.#deps.clock.now(),
    );
    if (!authorization.auto_activation) {
      throw aggregatorErrors.activation_not_permitted();
    }
    const tenants = await this.#deps.environments.environmentsOfClient(client.id);
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
    const tenants = await this.#deps.environments.environmentsOfClient(client.id);
    for (const environment of ['production', 'sandbox'] as const) {
      const tenant = tenants.find((candidate) => candidate.environment === environment)!;
      const failure = await validateWallet(this.#deps.wallets, {
        walletUrl: tenant.wallet_url,
        secret: this.#deps.tenants.walletSecret(tenant),
        currency: client.currency,
        playerId: environment === 'production' ? body.productionPlayerId : body.sandboxPlayerId,
      });
      if (failure) {
        await recordAggregatorAction(
          this.#deps.audit,
          this.#deps.db,
          principal,
          call,
          'client.activate',
          { type: 'client', id: client.id },
          'failure',
          { environment, ...failure },
        );
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
    if (!key || key.revoked_at || key.expires_at <= this.#deps.clock.now()) throw changed('API key');
  }

  async #activate(tx: Tx, client: Client) {
    const tenants = await this.#deps.environments.environmentsOfClient(client.id, tx);
    const issued = async (environment: Environment) => {
      const tenant = tenants.find((candidate) => candidate.environment === environment)!;
      const key = await this.#deps.credentials.issueIntegrationKey(tx, tenant.id);
      return { tenantId: tenant.id, environment, ...key };
    };
    const production = { ...(await issued('production')), environment: 'production' as const };
    const sandbox = { ...(await issued('sandbox')), environment: 'sandbox' as const };
    await store.updateClient(tx, client.id, { status: 'active', activated_at: this.#deps.clock.now() });
    await this.#deps.environments.setClientEnvironmentsStatus(tx, client.id, 'active');
    return {
      id: client.id,
      status: 'active' as const,
      credentialsReplaySeconds: CREDENTIALS_REPLAY_SECONDS,
      production,
      sandbox,
    };
  }
}

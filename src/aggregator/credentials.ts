import type { AuditLog } from '../platform/audit/log.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import type { AggregatorPrincipal } from '../platform/http/principals.ts';
import type { IdempotencyService, StoredResponse } from '../platform/idempotency/service.ts';
import type { TenantCredentials } from '../tenants/credentials.ts';
import type { TenantEnvironments } from '../tenants/environments.ts';
import { idempotencyScope, recordAggregatorAction, type IdempotentCall } from './calls.ts';
import { checkNoPlatformHold, ownedClient } from './checks.ts';
import { aggregatorErrors } from './errors.ts';
import { CREDENTIALS_REPLAY_SECONDS, type RotateCredentialsBody } from './schemas.ts';

type CredentialRotationDeps = {
  db: Db;
  audit: AuditLog;
  idempotency: IdempotencyService;
  environments: TenantEnvironments;
  credentials: TenantCredentials;
};

/**
 * RotateCredentials of the aggregator API: a new integration key for one environment of an active client, the
 * previous one revoked in the same transaction.
 */
export class CredentialRotation {
  readonly #deps: CredentialRotationDeps;

  constructor(deps: CredentialRotationDeps) {
    this.#deps = deps;
  }

  async rotateCredentials(
    principal: AggregatorPrincipal,
    call: IdempotentCall,
    clientId: string,
    body: RotateCredentialsBody,
  ): Promise<StoredResponse & { replayed: boolean }> {
    const scope = idempotencyScope(principal, call, `POST /clients/${clientId}/credentials/rotate`, body);
    return this.#deps.idempotency.run(scope, () =>
      inTransaction(this.#deps.db, async (tx) => {
        const client = await ownedClient(tx, principal, clientId, true);
        checkNoPlatformHold(client);
        if (client.status !== 'active') {
          throw aggregatorErrors.not_active();
        }
        const tenant = (await this.#deps.environments.environmentsOfClient(client.id, tx)).find(
          (candidate) => candidate.environment === body.environment,
        )!;
        const revokedKeys = await this.#deps.credentials.revokeIntegrationKeys(tx, [tenant.id]);
        const key = await this.#deps.credentials.issueIntegrationKey(tx, tenant.id);
        await recordAggregatorAction(
          this.#deps.audit,
          tx,
          principal,
          call,
          'client.credentials.rotate',
          { type: 'tenant', id: tenant.id },
          'success',
          { clientId, environment: body.environment, revokedKeys, reason: body.reason },
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
        await this.#deps.idempotency.complete(tx, scope, stored);
        return stored;
      }),
    );
  }
}

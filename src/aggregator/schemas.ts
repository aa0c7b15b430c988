import { CLIENT_STATUSES } from './states.ts';
import { IdempotencyHeaders } from '../platform/idempotency/schemas.ts';
import { Type, type Static } from 'typebox';
import { platformErrors, type ErrorFactory } from '../platform/errors.ts';
import { AGGREGATOR_SCOPES } from '../platform/http/principals.ts';
import { idempotencyErrors } from '../platform/idempotency/errors.ts';
import { aggregatorErrors } from './errors.ts';
import { MAX_ALLOWED_IPS } from './allowed-ips.ts';
import {
  Currency,
  EnvironmentName,
  Jurisdiction,
  Locale,
  MAX_EMBED_ORIGINS,
  Origin,
  Territory,
} from '../tenants/schemas.ts';
import { ListOrderQuery } from '../platform/http/cursor.ts';

export const MAX_AUTHORIZATION_YEARS = 5;
export const MAX_KEY_DAYS = 365;
export const CREDENTIALS_REPLAY_SECONDS = 86_400;
export const CLIENTS_PAGE = 50;

/** Text a person typed: no leading or trailing whitespace. */
const Text = (min: number, max: number, description?: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: '^\\S(.*\\S)?$', ...(description ? { description } : {}) });
const Reason = Type.Optional(Text(1, 500, 'free text kept in the audit log'));
const WalletUrl = Type.String({
  minLength: 8,
  maxLength: 2048,
  description:
    'HTTPS base URL of the wallet (origin plus optional path; no query, fragment or user info); ' +
    'its origin must be one of the authorization walletOrigins',
});
const Territories = Type.Array(Territory, { minItems: 1, maxItems: 250, uniqueItems: true });
const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

// ---- aggregator API: requests ----

export const CreateClientBody = Type.Object(
  {
    externalId: Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'your id for the casino; unique within your clients',
    }),
    name: Text(2, 100),
    legalName: Text(2, 200),
    brandName: Text(2, 100),
    currency: Currency,
    jurisdiction: Jurisdiction,
    locale: Locale,
    territories: Territories,
    embedOrigins: Type.Array(Origin, {
      maxItems: MAX_EMBED_ORIGINS,
      uniqueItems: true,
      description: 'exact HTTPS origins of the casino sites (scheme, host, optional port)',
    }),
    productionWalletUrl: WalletUrl,
    sandboxWalletUrl: WalletUrl,
    reason: Reason,
  },
  { additionalProperties: false },
);
export type CreateClientBody = Static<typeof CreateClientBody>;

export const ActivateClientBody = Type.Object(
  {
    productionPlayerId: Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'a player that exists in the production wallet',
    }),
    sandboxPlayerId: Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'a player that exists in the sandbox wallet',
    }),
    reason: Reason,
  },
  { additionalProperties: false },
);
export type ActivateClientBody = Static<typeof ActivateClientBody>;

export const RotateCredentialsBody = Type.Object(
  { environment: EnvironmentName, reason: Reason },
  { additionalProperties: false },
);
export type RotateCredentialsBody = Static<typeof RotateCredentialsBody>;

export const ListClientsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: CLIENTS_PAGE })),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
    externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type ListClientsQuery = Static<typeof ListClientsQuery>;

const ClientIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

// ---- aggregator API: responses ----

const EnvironmentRecord = Type.Object({
  tenantId: Type.String(),
  environment: EnvironmentName,
  status: Type.Enum(CLIENT_STATUSES),
  walletUrl: Type.String(),
  integrationKey: Nullable(Type.Object({ keyId: Type.String(), createdAt: Timestamp })),
});

export const ClientRecord = Type.Object({
  id: Type.String(),
  externalId: Type.String(),
  name: Type.String(),
  legalName: Type.String(),
  brandName: Type.String(),
  currency: Currency,
  jurisdiction: Jurisdiction,
  locale: Locale,
  territories: Type.Array(Type.String()),
  embedOrigins: Type.Array(Type.String()),
  status: Type.Enum(CLIENT_STATUSES),
  suspendedByPlatform: Type.Boolean({
    description: 'true while the platform holds the client suspended; only the platform can lift it',
  }),
  credentialsRevokedByPlatform: Type.Boolean({
    description:
      'true while the platform holds the integration keys revoked; rotation is refused until it lifts the hold',
  }),
  nextAction: Type.Enum(['install_wallet_secrets_then_activate', 'none', 'contact_platform']),
  production: EnvironmentRecord,
  sandbox: EnvironmentRecord,
  createdAt: Timestamp,
  activatedAt: Nullable(Timestamp),
});

const CreatedClient = Type.Object({
  id: Type.String(),
  externalId: Type.String(),
  status: Type.Literal('suspended'),
  nextAction: Type.Literal('install_wallet_secrets_then_activate'),
  credentialsReplaySeconds: Type.Literal(CREDENTIALS_REPLAY_SECONDS),
  production: Type.Object({ tenantId: Type.String(), walletSecret: Type.String() }),
  sandbox: Type.Object({ tenantId: Type.String(), walletSecret: Type.String() }),
});

const IssuedEnvironmentKey = (environment: 'production' | 'sandbox') =>
  Type.Object({
    tenantId: Type.String(),
    environment: Type.Literal(environment),
    keyId: Type.String(),
    integrationApiKey: Type.String(),
  });

const ActivatedClient = Type.Object({
  id: Type.String(),
  status: Type.Literal('active'),
  credentialsReplaySeconds: Type.Literal(CREDENTIALS_REPLAY_SECONDS),
  production: IssuedEnvironmentKey('production'),
  sandbox: IssuedEnvironmentKey('sandbox'),
});

const RotatedCredentials = Type.Object({
  id: Type.String({ description: 'client id' }),
  environment: EnvironmentName,
  tenantId: Type.String(),
  keyId: Type.String(),
  integrationApiKey: Type.String(),
  revokedKeys: Type.Integer({ description: 'how many earlier keys of this environment stopped working' }),
  credentialsReplaySeconds: Type.Literal(CREDENTIALS_REPLAY_SECONDS),
});

const tags = ['aggregator'];
const idempotent = Object.values(idempotencyErrors);

export const createClientSchema = {
  tags,
  operationId: 'createClient',
  summary: 'Register a casino as a client with a production and a sandbox environment',
  headers: IdempotencyHeaders,
  body: CreateClientBody,
  response: { 201: CreatedClient },
  errors: [
    aggregatorErrors.not_authorized,
    aggregatorErrors.duplicate_external_id,
    aggregatorErrors.quota_exceeded,
    ...idempotent,
  ],
};
export const listClientsSchema = {
  tags,
  operationId: 'listClients',
  summary: 'List your clients, ordered by id',
  querystring: ListClientsQuery,
  response: {
    200: Type.Object({
      clients: Type.Array(ClientRecord),
      nextCursor: Type.String({ description: 'empty when there are no more' }),
    }),
  },
};
export const getClientSchema = {
  tags,
  operationId: 'getClient',
  summary: 'Read one of your clients',
  params: ClientIdParams,
  response: { 200: Type.Object({ client: ClientRecord }) },
  errors: [platformErrors.not_found],
};
export const activateClientSchema = {
  tags,
  operationId: 'activateClient',
  summary: 'Validate both wallets and activate the client',
  headers: IdempotencyHeaders,
  params: ClientIdParams,
  body: ActivateClientBody,
  response: { 200: ActivatedClient },
  errors: [
    platformErrors.not_found,
    aggregatorErrors.suspended_by_platform,
    aggregatorErrors.credentials_revoked_by_platform,
    aggregatorErrors.deployment_not_configured,
    aggregatorErrors.already_active,
    aggregatorErrors.activation_not_permitted,
    aggregatorErrors.not_authorized,
    aggregatorErrors.wallet_validation_failed,
    aggregatorErrors.configuration_changed,
    ...idempotent,
  ],
};
export const rotateCredentialsSchema = {
  tags,
  operationId: 'rotateCredentials',
  summary: 'Replace the integration key of one environment',
  headers: IdempotencyHeaders,
  params: ClientIdParams,
  body: RotateCredentialsBody,
  response: { 200: RotatedCredentials },
  errors: [
    platformErrors.not_found,
    aggregatorErrors.suspended_by_platform,
    aggregatorErrors.credentials_revoked_by_platform,
    aggregatorErrors.not_active,
    ...idempotent,
  ],
};

// ---- platform administration ----

const CreateAggregatorBody = Type.Object({ name: Text(2, 100) }, { additionalProperties: false });

export const AuthorizationBody = Type.Object(
  {
    enabled: Type.Boolean(),
    clientQuota: Type.Integer({ minimum: 0, maximum: 10_000 }),
    currencies: Type.Array(Currency, { minItems: 1, uniqueItems: true }),
    jurisdictions: Type.Array(Jurisdiction, { minItems: 1, uniqueItems: true }),
    territories: Territories,
    walletOrigins: Type.Array(Origin, { minItems: 1, maxItems: 50, uniqueItems: true }),
    allowedIps: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: MAX_ALLOWED_IPS,
        description:
          'the source addresses the aggregator API accepts this aggregator from: IPv4 or IPv6 addresses or CIDR ' +
          'ranges (203.0.113.7, 198.51.100.0/24, 2001:db8::/32), stored normalised; empty or absent: any address',
      }),
    ),
    autoActivation: Type.Boolean(),
    agreementRef: Text(1, 200),
    expiresAt: Timestamp,
  },
  { additionalProperties: false },
);
export type AuthorizationBody = Static<typeof AuthorizationBody>;

export const AuthorizationRecord = Type.Object({
  version: Type.Integer(),
  enabled: Type.Boolean(),
  clientQuota: Type.Integer(),
  currencies: Type.Array(Type.String()),
  jurisdictions: Type.Array(Type.String()),
  territories: Type.Array(Type.String()),
  walletOrigins: Type.Array(Type.String()),
  allowedIps: Type.Array(Type.String(), { description: 'normalised; empty: any source address' }),
  autoActivation: Type.Boolean(),
  agreementRef: Type.String(),
  expiresAt: Timestamp,
  updatedAt: Timestamp,
  updatedBy: Type.String(),
});

export const IssueKeyBody = Type.Object(
  {
    scopes: Type.Array(Type.Enum(AGGREGATOR_SCOPES), { minItems: 1, uniqueItems: true }),
    expiresAt: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type IssueKeyBody = Static<typeof IssueKeyBody>;

export const KeyRecord = Type.Object({
  keyId: Type.String(),
  prefix: Nullable(
    Type.String({
      description: 'the first characters of the key (bm_agg_ and 6 more), to tell keys apart; null for older keys',
    }),
  ),
  scopes: Type.Array(Type.String()),
  status: Type.Enum(['live', 'expired', 'revoked']),
  expiresAt: Timestamp,
  revokedAt: Nullable(Timestamp),
  createdAt: Timestamp,
  createdBy: Type.String({ description: 'the staff member who issued it' }),
  lastUsedAt: Nullable(
    Type.String({ format: 'date-time', description: 'last request with the key, recorded to the minute' }),
  ),
});

export const AggregatorRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Timestamp,
  authorization: Nullable(AuthorizationRecord),
  keys: Type.Array(KeyRecord),
  clientCount: Type.Integer(),
});

const ClientActionBody = Type.Object({ reason: Reason }, { additionalProperties: false });

const HistoryEntry = Type.Object({
  at: Timestamp,
  action: Type.String({ description: 'client.create, client.activate, client.suspend, client.resume, ...' }),
  outcome: Type.Enum(['success', 'failure', 'denied']),
  actor: Type.Object({ type: Type.String(), id: Nullable(Type.String()) }),
  details: Type.Record(Type.String(), Type.Unknown(), { description: 'reason, environment, failed check, ...' }),
});
/** The newest entries of a client's history in its answer; the whole trail is in the audit log. */
export const CLIENT_HISTORY_ENTRIES = 50;
const AdminClientAnswer = Type.Object({
  client: ClientRecord,
  aggregatorId: Type.String(),
  history: Type.Array(HistoryEntry, {
    description:
      `the client's creation, activation attempts, suspensions, resumptions, revocations and rotations, newest ` +
      `first (at most ${CLIENT_HISTORY_ENTRIES}; GET /api/v1/admin/audit has them all)`,
  }),
});

const AdminClientItem = Type.Object({
  ...ClientRecord.properties,
  aggregatorId: Type.String(),
  aggregatorName: Type.String(),
});

export const AdminClientsQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: "part of the name (any case), or exactly the client's id, its externalId or a tenant id of it",
      }),
    ),
    aggregatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    status: Type.Optional(Type.Enum(CLIENT_STATUSES)),
    order: ListOrderQuery,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: CLIENTS_PAGE })),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type AdminClientsQuery = Static<typeof AdminClientsQuery>;

const AggregatorActionBody = Type.Object({ reason: Reason }, { additionalProperties: false });

const adminTags = ['admin: aggregators'];
const AggregatorIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const adminSchemas = {
  createAggregator: {
    tags: adminTags,
    operationId: 'createAggregator',
    summary: 'Register an aggregator (starts without authorization, so disabled)',
    body: CreateAggregatorBody,
    response: { 201: Type.Object({ aggregator: AggregatorRecord }) },
  },
  listAggregators: {
    tags: adminTags,
    operationId: 'listAggregators',
    summary: 'All aggregators',
    response: { 200: Type.Object({ aggregators: Type.Array(AggregatorRecord) }) },
  },
  getAggregator: {
    tags: adminTags,
    operationId: 'getAggregator',
    summary: 'One aggregator with its authorization and keys',
    params: AggregatorIdParams,
    response: { 200: Type.Object({ aggregator: AggregatorRecord }) },
    errors: [platformErrors.not_found],
  },
  putAuthorization: {
    tags: adminTags,
    operationId: 'setAuthorization',
    summary: 'Set the whole authorization policy; each change bumps its version',
    params: AggregatorIdParams,
    body: AuthorizationBody,
    response: { 200: Type.Object({ authorization: AuthorizationRecord }) },
    errors: [platformErrors.not_found],
  },
  issueKey: {
    tags: adminTags,
    operationId: 'issueAggregatorKey',
    summary: 'Issue a scoped aggregator key, shown this once',
    params: AggregatorIdParams,
    body: IssueKeyBody,
    response: {
      201: Type.Object({
        keyId: Type.String(),
        key: Type.String({ description: 'shown this once' }),
        prefix: Type.String(),
        scopes: Type.Array(Type.String()),
        expiresAt: Timestamp,
      }),
    },
    errors: [platformErrors.not_found, aggregatorErrors.authorization_missing, aggregatorErrors.authorization_expired],
  },
  revokeKey: {
    tags: adminTags,
    operationId: 'revokeAggregatorKey',
    summary: 'Revoke an aggregator key: new requests and replays with it stop',
    params: Type.Object({ id: Type.String({ maxLength: 64 }), keyId: Type.String({ maxLength: 64 }) }),
    response: { 200: Type.Object({ key: KeyRecord }) },
    errors: [platformErrors.not_found],
  },
  listKeys: {
    tags: adminTags,
    operationId: 'listAggregatorKeys',
    summary: "An aggregator's keys, newest first: prefix, scopes, expiry, last use (never the key)",
    params: AggregatorIdParams,
    response: { 200: Type.Object({ keys: Type.Array(KeyRecord) }) },
    errors: [platformErrors.not_found],
  },
  aggregatorAction: (operationId: string, summary: string) => ({
    tags: adminTags,
    operationId,
    summary,
    params: AggregatorIdParams,
    body: AggregatorActionBody,
    response: { 200: Type.Object({ aggregator: AggregatorRecord }) },
    errors: [platformErrors.not_found, aggregatorErrors.authorization_missing],
  }),
  listClients: {
    tags: adminTags,
    operationId: 'adminListClients',
    summary: 'Clients of every aggregator, newest first, with both environments',
    querystring: AdminClientsQuery,
    response: { 200: Type.Object({ clients: Type.Array(AdminClientItem), nextCursor: Type.String() }) },
  },
  getClient: {
    tags: adminTags,
    operationId: 'adminGetClient',
    summary: 'Any client, with its aggregator and its history',
    params: ClientIdParams,
    response: { 200: AdminClientAnswer },
    errors: [platformErrors.not_found],
  },
  clientAction: (operationId: string, summary: string, errors: ErrorFactory[] = []) => ({
    tags: adminTags,
    operationId,
    summary,
    params: ClientIdParams,
    body: ClientActionBody,
    response: { 200: AdminClientAnswer },
    errors: [platformErrors.not_found, ...errors],
  }),
};

import { PLAYER_STATUSES } from './states.ts';
import { Type, type Static } from 'typebox';
import { platformErrors } from '../platform/errors.ts';
import { integrationErrors } from './errors.ts';
import { Currency, Locale } from '../tenants/schemas.ts';

const Id = '[A-Za-z0-9_-]{1,64}';
/** Contract deep links: /, /live, /live/{sportId}, /sport/{sportId}, /competition/{competitionId}, /event/{eventId}, /my-bets. */
const DEEP_LINK_PATTERN = `^/((live(/${Id})?)|(sport/${Id})|(competition/${Id})|(event/${Id})|(my-bets))?$`;
const DeepLink = Type.String({
  pattern: DEEP_LINK_PATTERN,
  maxLength: 100,
  description: 'deep link of the first page',
});

const Timestamp = Type.String({ format: 'date-time' });

const TenantHeaders = Type.Object({
  'x-tenant-id': Type.String({ minLength: 1, maxLength: 80, description: 'tenant id of the environment' }),
});

export const SessionRequest = Type.Object(
  {
    externalPlayerId: Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'your stable, opaque player id (never an e-mail or CPF); the playerId of every wallet call',
    }),
    displayName: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "nickname shown in the sportsbook; default 'Player'" }),
    ),
    currency: Type.Optional(Currency),
    cpf: Type.Optional(
      Type.Unknown({ deprecated: true, description: 'deprecated: accepted and ignored, neither validated nor stored' }),
    ),
    path: Type.Optional(DeepLink),
    locale: Type.Optional(Locale),
  },
  { additionalProperties: false },
);
export type SessionRequest = Static<typeof SessionRequest>;

export const PlayerRecord = Type.Object({
  id: Type.String(),
  tenantId: Type.String(),
  externalId: Type.String(),
  status: Type.Enum(PLAYER_STATUSES),
  displayName: Type.String(),
  currency: Type.String(),
  kycStatus: Type.String({
    description: "'verified' for players created through the integration: KYC is delegated to the operator",
  }),
  createdAt: Timestamp,
});

const SessionResponse = Type.Object({
  launchToken: Type.String({ description: 'single use, for the page or SDK; expires at launchExpiresAt' }),
  launchExpiresAt: Timestamp,
  launchUrl: Type.String({ description: 'ready-made iframe URL with tenant, launch, path and locale' }),
  token: Type.String({ description: 'the session token: keep it on your server, never in a URL or page' }),
  player: PlayerRecord,
});

const LaunchBody = Type.Object(
  { launchToken: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
const LaunchResponse = Type.Object({ token: Type.String(), player: PlayerRecord });

const SessionInfo = Type.Object({
  player: PlayerRecord,
  session: Type.Object({
    expiresAt: Timestamp,
    idleExpiresAt: Timestamp,
    idleTimeoutMinutes: Type.Integer(),
  }),
});

const ConfigQuery = Type.Object(
  { tenant: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })) },
  { additionalProperties: false },
);

export const PublicConfig = Type.Object({
  tenant: Type.Object({
    id: Type.String(),
    name: Type.String(),
    currency: Type.String(),
    locale: Type.String(),
    jurisdiction: Type.String(),
    embedOrigins: Type.Array(Type.String()),
    available: Type.Boolean({ description: 'false while the tenant is suspended: sessions cannot be opened' }),
  }),
  session: Type.Object({ idleTimeoutMinutes: Type.Integer(), absoluteTimeoutHours: Type.Integer() }),
  betting: Type.Object(
    {
      minStake: Type.Integer({ description: 'minor units' }),
      maxStake: Type.Integer({ description: 'minor units' }),
      maxPayout: Type.Integer({ description: 'minor units; the most one bet may pay' }),
    },
    { description: "the tenant's stake range and payout cap, so the bet slip can say them before a refusal" },
  ),
  locales: Type.Array(Type.String()),
  embed: Type.Object({ sdkUrl: Type.String(), protocolVersion: Type.Integer() }),
});

const tags = ['integration'];

export const sessionsSchema = {
  tags,
  operationId: 'openPlayerSession',
  summary: 'Open a player session (casino server, X-Tenant-ID + X-API-Key)',
  headers: TenantHeaders,
  body: SessionRequest,
  response: { 200: SessionResponse },
  errors: [
    integrationErrors.account_blocked,
    integrationErrors.account_paused,
    integrationErrors.account_closed,
    integrationErrors.unavailable,
  ],
};

export const launchSchema = {
  tags,
  operationId: 'exchangeLaunchToken',
  summary: 'Exchange a launch token for the session (iframe)',
  headers: TenantHeaders,
  body: LaunchBody,
  response: { 200: LaunchResponse },
  errors: [
    integrationErrors.launch_token_invalid,
    integrationErrors.launch_token_used,
    integrationErrors.launch_token_expired,
    integrationErrors.session_expired,
    integrationErrors.account_blocked,
    integrationErrors.account_paused,
    integrationErrors.account_closed,
    integrationErrors.unavailable,
    platformErrors.not_found,
  ],
};

export const configSchema = {
  tags,
  operationId: 'getPublicConfig',
  summary: 'Public settings of a tenant for the iframe (by X-Tenant-ID or ?tenant=)',
  querystring: ConfigQuery,
  response: { 200: PublicConfig },
  errors: [platformErrors.not_found],
};

export const sessionInfoSchema = {
  tags: ['player'],
  operationId: 'getPlayerSession',
  summary: 'The player session behind the bearer token (counts as activity)',
  response: { 200: SessionInfo },
};

export const logoutSchema = {
  tags: ['player'],
  operationId: 'logoutPlayer',
  summary: 'End the player session',
  response: { 204: Type.Null({ description: 'the session has ended' }) },
};

const PlayerStatusBody = Type.Object(
  {
    status: Type.Enum(PLAYER_STATUSES),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const playerStatusSchema = {
  tags: ['admin: players'],
  operationId: 'setPlayerStatus',
  summary: 'Block, pause, close or reactivate a player (operator of the tenant, or platform administrator)',
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
  body: PlayerStatusBody,
  response: { 200: Type.Object({ player: PlayerRecord }) },
  errors: [platformErrors.not_found],
};

const StakeFactor = Type.String({
  pattern: '^(?:[0-9]|10)(?:\\.[0-9]{1,4})?$',
  description:
    'the share of the tenant\'s maximum stake the player may stake: "1" all of it (the default), "0.25" a ' +
    'quarter, up to "10"; at least "0.0001"',
});
export const stakeFactorSchema = {
  tags: ['admin: players'],
  operationId: 'setPlayerStakeFactor',
  summary:
    "Set a player's stake factor: the share of the tenant's maximum stake the player may stake (traders, operators)",
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
  body: Type.Object(
    { factor: StakeFactor, reason: Type.String({ minLength: 1, maxLength: 500 }) },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({
      player: Type.Object({
        id: Type.String(),
        tenantId: Type.String(),
        stakeFactor: StakeFactor,
        maxStake: Type.Integer({ description: "the player's maximum stake now, minor units of the tenant currency" }),
      }),
    }),
  },
  errors: [platformErrors.not_found, platformErrors.validation],
};

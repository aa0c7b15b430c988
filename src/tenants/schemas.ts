import { WALLET_MODES } from './states.ts';
import { TENANT_STATUSES } from './states.ts';
import { ENVIRONMENTS } from './states.ts';
import { Type, type Static } from 'typebox';

/** Reference data of the contract (CreateClient table). */
const CURRENCIES = ['BRL', 'USD', 'EUR', 'PEN', 'COP', 'MXN', 'KES', 'ZAR', 'PHP'] as const;
const JURISDICTIONS = ['BR', 'ROW'] as const;
export const LOCALES = ['en', 'pt-BR', 'es'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const Currency = Type.Enum(CURRENCIES);
export const Jurisdiction = Type.Enum(JURISDICTIONS);
export const Locale = Type.Enum(LOCALES);
export const EnvironmentName = Type.Enum(ENVIRONMENTS);

/** ISO 3166-1 alpha-2 country, optionally with an ISO 3166-2 subdivision: BR, BR-SP, US-NJ. */
export const Territory = Type.String({ pattern: '^[A-Z]{2}(-[A-Z0-9]{1,3})?$', maxLength: 6 });

/** An exact origin (scheme, host, optional port); checked further by parseExactOrigin. */
export const Origin = Type.String({ minLength: 8, maxLength: 200 });
export const MAX_EMBED_ORIGINS = 20;

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const WalletUrl = Type.String({ minLength: 8, maxLength: 2048, description: 'HTTPS base URL of the wallet' });
const EmbedOrigins = Type.Array(Origin, {
  maxItems: MAX_EMBED_ORIGINS,
  uniqueItems: true,
  description: 'exact origins of the casino pages allowed to frame the sportsbook (scheme, host, optional port)',
});

const MinorUnits = Type.Integer({ minimum: 1, maximum: 1_000_000_000_000 });
const BettingLimits = Type.Object(
  {
    minStake: MinorUnits,
    maxStake: MinorUnits,
    maxPayout: MinorUnits,
    maxSelectionLiability: MinorUnits,
    maxEventLiability: MinorUnits,
  },
  {
    additionalProperties: false,
    description:
      'minor units of the tenant currency; liability = potential payout - stake, reserved per selection and per event',
  },
);

const AdjustmentPolicy = Type.Object(
  {
    maxAmount: MinorUnits,
    approvalAbove: Type.Integer({
      minimum: 0,
      maximum: 1_000_000_000_000,
      description: 'an adjustment above this needs a second staff member to approve it; 0: every adjustment does',
    }),
  },
  {
    additionalProperties: false,
    description:
      "operators' manual adjustments, minor units of the tenant currency: the largest single one, and the four-eyes " +
      'threshold; platform only',
  },
);

export const TenantRecord = Type.Object({
  id: Type.String(),
  clientId: Nullable(Type.String()),
  environment: EnvironmentName,
  name: Type.String(),
  currency: Type.String(),
  locale: Type.String(),
  jurisdiction: Type.String(),
  embedOrigins: Type.Array(Type.String()),
  walletUrl: Type.String(),
  walletMode: Type.String(),
  status: Type.Enum(TENANT_STATUSES),
  createdAt: Timestamp,
  firstFinancialAt: Nullable(Timestamp),
  limits: BettingLimits,
  adjustments: AdjustmentPolicy,
  integrationKey: Nullable(Type.Object({ keyId: Type.String(), createdAt: Timestamp })),
});

export const CreateTenantBody = Type.Object(
  {
    name: Type.String({ minLength: 2, maxLength: 100, pattern: '^\\S(.*\\S)?$' }),
    currency: Currency,
    locale: Locale,
    jurisdiction: Jurisdiction,
    walletUrl: WalletUrl,
    embedOrigins: Type.Optional(EmbedOrigins),
  },
  { additionalProperties: false },
);
export type CreateTenantBody = Static<typeof CreateTenantBody>;

export const UpdateTenantBody = Type.Object(
  {
    embedOrigins: Type.Optional(EmbedOrigins),
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 100, pattern: '^\\S(.*\\S)?$' })),
    locale: Type.Optional(Locale),
    walletUrl: Type.Optional(WalletUrl),
    walletMode: Type.Optional(Type.Enum(WALLET_MODES)),
    currency: Type.Optional(Currency),
    status: Type.Optional(
      Type.Enum(TENANT_STATUSES, { description: 'platform only: a suspended tenant opens no sessions (503)' }),
    ),
    limits: Type.Optional(BettingLimits),
    adjustments: Type.Optional(AdjustmentPolicy),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateTenantBody = Static<typeof UpdateTenantBody>;

export const TenantQuery = Type.Object(
  {
    tenantId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 80,
        description: 'platform administrators name the tenant; operators may omit it',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RotatedApiKey = Type.Object({
  tenantId: Type.String(),
  keyId: Type.String(),
  integrationApiKey: Type.String(),
});
export const RotatedWalletSecret = Type.Object({ tenantId: Type.String(), walletSecret: Type.String() });
export const CreatedTenant = Type.Object({
  tenant: TenantRecord,
  walletSecret: Type.String(),
  keyId: Type.String(),
  integrationApiKey: Type.String(),
});

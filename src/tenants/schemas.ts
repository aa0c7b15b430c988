import { Type } from 'typebox';

/** Reference data of the contract (CreateClient table). */
export const CURRENCIES = ['BRL', 'USD', 'EUR', 'PEN', 'COP', 'MXN', 'KES', 'ZAR', 'PHP'] as const;
export const JURISDICTIONS = ['BR', 'ROW'] as const;
export const LOCALES = ['en', 'pt-BR', 'es'] as const;
export const ENVIRONMENTS = ['production', 'sandbox'] as const;
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

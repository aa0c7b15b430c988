import type { ApiRequest, ApiResponse } from '../../../api.ts';

type Authorization = NonNullable<ApiResponse<'getAggregator'>['aggregator']['authorization']>;
export type AuthorizationBody = ApiRequest<'setAuthorization'>;

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);

/** One entry a line, blank lines left out; the API names an entry it refuses (allowedIps.N). */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The form's text for each field of the policy (lists as text, the expiry as a local date-time). */
export function formOf(authorization: Authorization | null) {
  const inYear = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
  return {
    enabled: authorization?.enabled ?? true,
    clientQuota: String(authorization?.clientQuota ?? 10),
    currencies: authorization?.currencies.join(', ') ?? '',
    jurisdictions: authorization?.jurisdictions.join(', ') ?? '',
    territories: authorization?.territories.join(', ') ?? '',
    walletOrigins: authorization?.walletOrigins.join('\n') ?? '',
    allowedIps: authorization?.allowedIps.join('\n') ?? '',
    autoActivation: authorization?.autoActivation ?? false,
    agreementRef: authorization?.agreementRef ?? '',
    expiresAt: (authorization?.expiresAt ?? inYear).slice(0, 16),
  };
}

/** The policy the API is sent: lists split, codes upper-cased, the expiry as an instant. */
export function bodyOf(form: ReturnType<typeof formOf>): AuthorizationBody {
  return {
    enabled: form.enabled,
    clientQuota: Number(form.clientQuota),
    // The API checks each code against what it supports, and names the one it refuses.
    currencies: list(form.currencies).map((code) => code.toUpperCase()) as AuthorizationBody['currencies'],
    jurisdictions: list(form.jurisdictions).map((code) => code.toUpperCase()) as AuthorizationBody['jurisdictions'],
    territories: list(form.territories).map((code) => code.toUpperCase()),
    walletOrigins: list(form.walletOrigins),
    allowedIps: lines(form.allowedIps),
    autoActivation: form.autoActivation,
    agreementRef: form.agreementRef.trim(),
    expiresAt: new Date(form.expiresAt).toISOString(),
  };
}

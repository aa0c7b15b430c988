/**
 * The token of an `Authorization: Bearer <token>` header, or null when absent or malformed. The scheme's name is
 * case-insensitive (RFC 9110 section 11.1): `bearer` and `BEARER` are `Bearer`; the token is taken as sent.
 */
export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer ([A-Za-z0-9_\-.~+/]{16,512}=*)$/i.exec(authorization.trim());
  return match ? match[1]! : null;
}

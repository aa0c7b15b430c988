/** The token of an `Authorization: Bearer <token>` header, or null when absent or malformed. */
export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer ([A-Za-z0-9_\-.~+/]{16,512}=*)$/.exec(authorization.trim());
  return match ? match[1]! : null;
}

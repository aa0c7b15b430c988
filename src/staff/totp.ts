import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as required: SHA-1, 6 digits, 30 s steps, one step of drift either way. */
const PERIOD_SECONDS = 30;
const DRIFT_STEPS = 1;
const ISSUER = 'Bookmaker';

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpFor(secretBase32: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
  });
}

export function otpauthUrl(secretBase32: string, email: string): string {
  return totpFor(secretBase32, email).toString();
}

/** The time step the code belongs to, or null when it matches none within the drift window. */
export function matchTotpStep(secretBase32: string, code: string, now: Date): number | null {
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: now.getTime(), window: DRIFT_STEPS });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** For tests and tooling: the code an authenticator app would show at `at`. */
export function totpCode(secretBase32: string, at: Date): string {
  return totpFor(secretBase32).generate({ timestamp: at.getTime() });
}

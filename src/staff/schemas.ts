import { Type, type Static } from 'typebox';
import { platformErrors } from '../platform/errors.ts';
import { STAFF_ROLES } from '../platform/http/principals.ts';
import { staffErrors } from './errors.ts';

const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
const Password = Type.String({ minLength: 1, maxLength: 256 });
/** Policy for new passwords; login accepts any length up to the bound so old passwords keep working. */
export const NEW_PASSWORD_MIN_LENGTH = 12;

const LoginBody = Type.Object(
  {
    email: Email,
    password: Password,
    totp: Type.String({ pattern: '^[0-9]{6}$', description: 'current 6-digit code of the authenticator app' }),
  },
  { additionalProperties: false },
);
type LoginBody = Static<typeof LoginBody>;

const LoginResponse = Type.Object({
  token: Type.String({ description: 'opaque staff token (prefix bm_staff_); send as Authorization: Bearer' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

const StaffProfile = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.Enum(STAFF_ROLES),
  tenantId: Type.Union([Type.String(), Type.Null()]),
  sessionExpiresAt: Type.String({ format: 'date-time' }),
});

const tags = ['admin: staff'];

export const loginSchema = {
  tags,
  operationId: 'staffLogin',
  summary: 'Log in with e-mail, password and TOTP code',
  body: LoginBody,
  response: { 200: LoginResponse },
  errors: [staffErrors.invalid_credentials, staffErrors.account_locked, platformErrors.rate_limited],
};

export const logoutSchema = {
  tags,
  operationId: 'staffLogout',
  summary: 'End the staff session of the bearer token',
  response: { 204: Type.Null({ description: 'logged out' }) },
};

export const meSchema = {
  tags,
  operationId: 'staffMe',
  summary: 'The staff account behind the bearer token',
  response: { 200: Type.Object({ staff: StaffProfile }) },
};

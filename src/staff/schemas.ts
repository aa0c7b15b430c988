import { Type, type Static } from 'typebox';
import { platformErrors } from '../platform/errors.ts';
import { STAFF_ROLES } from '../platform/http/principals.ts';
import { staffErrors } from './errors.ts';
import { STAFF_STATUSES } from './states.ts';
import { ListOrderQuery } from '../platform/http/cursor.ts';

const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
const Password = Type.String({ minLength: 1, maxLength: 256 });
/** Policy for new passwords; login accepts any length up to the bound so old passwords keep working. */
export const NEW_PASSWORD_MIN_LENGTH = 12;
const NewPassword = Type.String({
  minLength: NEW_PASSWORD_MIN_LENGTH,
  maxLength: 256,
  description: `${NEW_PASSWORD_MIN_LENGTH} to 256 characters`,
});
const Totp = Type.String({ pattern: '^[0-9]{6}$', description: 'current 6-digit code of the authenticator app' });
const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const TenantId = Type.String({ minLength: 1, maxLength: 64 });
const Reason = Type.Optional(
  Type.String({ minLength: 1, maxLength: 500, pattern: '^\\S(.*\\S)?$', description: 'kept in the audit log' }),
);

const LoginBody = Type.Object(
  {
    email: Email,
    password: Password,
    totp: Type.Optional(
      Type.String({
        pattern: '^[0-9]{6}$',
        description:
          'current 6-digit code of the authenticator app; leave it out only for an account that has not enrolled one ' +
          'yet (the answer is then an enrolment)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

const SessionAnswer = Type.Object(
  {
    token: Type.String({ description: 'opaque staff token (prefix bm_staff_); send as Authorization: Bearer' }),
    expiresAt: Type.String({ format: 'date-time', description: 'the 12-hour lifetime; idle sessions end sooner' }),
  },
  { additionalProperties: false, description: 'signed in' },
);

const EnrolmentAnswer = Type.Object(
  {
    enrolment: Type.Object(
      {
        enrolmentToken: Type.String({
          description: 'single use, for POST /api/v1/admin/auth/enrol; a newer sign-in replaces it',
        }),
        secret: Type.String({ description: 'the new TOTP secret, base32 (RFC 6238: SHA-1, 6 digits, 30 s)' }),
        otpauthUrl: Type.String({ description: 'the same secret as an otpauth:// URL, for a QR code' }),
        expiresAt: Timestamp,
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    description: 'password right, no authenticator enrolled yet: add the secret to an app, then send its first code',
  },
);

const EnrolBody = Type.Object(
  { enrolmentToken: Type.String({ minLength: 1, maxLength: 100 }), totp: Totp },
  { additionalProperties: false },
);
export type EnrolBody = Static<typeof EnrolBody>;

const StaffProfile = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.Enum(STAFF_ROLES),
  tenantId: Nullable(Type.String()),
  sessionExpiresAt: Timestamp,
  idleExpiresAt: Type.String({
    format: 'date-time',
    description: 'when the session ends without another request (sessionExpiresAt if that comes first)',
  }),
  idleTimeoutSeconds: Type.Integer({ description: 'a session ends after this long without a request' }),
});

export const StaffView = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.Enum(STAFF_ROLES),
  tenantId: Nullable(Type.String()),
  status: Type.Enum(STAFF_STATUSES),
  enrolled: Type.Boolean({ description: 'false until the authenticator is enrolled at sign-in (again after a reset)' }),
  enrolledAt: Nullable(Timestamp),
  lockedUntil: Nullable(Type.String({ format: 'date-time', description: 'set while failed log-ins lock the account' })),
  createdAt: Timestamp,
  lastLoginAt: Nullable(Timestamp),
});
export type StaffView = Static<typeof StaffView>;

export const STAFF_PAGE = 50;
const StaffListQuery = Type.Object(
  {
    role: Type.Optional(Type.Enum(STAFF_ROLES)),
    tenantId: Type.Optional(TenantId),
    status: Type.Optional(Type.Enum(STAFF_STATUSES)),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'part of the e-mail, any case' })),
    order: ListOrderQuery,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: STAFF_PAGE })),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type StaffListQuery = Static<typeof StaffListQuery>;

const CreateStaffBody = Type.Object(
  {
    email: Email,
    password: NewPassword,
    role: Type.Enum(STAFF_ROLES),
    tenantId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'operators only, and required for them' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateStaffBody = Static<typeof CreateStaffBody>;

const StaffIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const StaffActionBody = Type.Object({ reason: Reason }, { additionalProperties: false });
const StaffAnswer = Type.Object({ staff: StaffView });

const tags = ['admin: staff'];

export const loginSchema = {
  tags,
  operationId: 'staffLogin',
  summary:
    'Sign in with e-mail, password and TOTP code; without a code, an account not yet enrolled gets its enrolment',
  body: LoginBody,
  response: {
    200: Type.Union([SessionAnswer, EnrolmentAnswer], {
      description:
        '`{ token, expiresAt }` when signed in; `{ enrolment }` when the password is right and the account has no ' +
        'authenticator yet (the code is then sent to POST /api/v1/admin/auth/enrol)',
    }),
  },
  errors: [staffErrors.invalid_credentials, staffErrors.account_locked, platformErrors.rate_limited],
};

export const enrolSchema = {
  tags,
  operationId: 'staffEnrol',
  summary: "Finish the authenticator's enrolment with its first code, and sign in",
  body: EnrolBody,
  response: { 200: SessionAnswer },
  errors: [
    staffErrors.enrolment_invalid,
    staffErrors.invalid_credentials,
    staffErrors.account_locked,
    platformErrors.rate_limited,
  ],
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

export const listStaffSchema = {
  tags,
  operationId: 'listStaff',
  summary: 'Staff accounts, newest first',
  querystring: StaffListQuery,
  response: { 200: Type.Object({ staff: Type.Array(StaffView), nextCursor: Type.String() }) },
};

export const createStaffSchema = {
  tags,
  operationId: 'createStaff',
  summary: 'Create a staff account; it enrols its authenticator at first sign-in',
  body: CreateStaffBody,
  response: { 201: StaffAnswer },
  errors: [staffErrors.staff_exists],
};

export const staffActionSchema = (operationId: string, summary: string, errors = [platformErrors.not_found]) => ({
  tags,
  operationId,
  summary,
  params: StaffIdParams,
  body: StaffActionBody,
  response: { 200: StaffAnswer },
  errors,
});

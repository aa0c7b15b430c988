import { Type, type Static } from 'typebox';
import { platformErrors } from '../errors.ts';
import { auditErrors } from './errors.ts';
import { ACTOR_TYPES } from './log.ts';
import { ListOrderQuery } from '../http/cursor.ts';

export const AUDIT_PAGE = 50;
/** At most this many rows in one CSV export; more matching rows refuse the export (narrow the filter). */
export const MAX_EXPORT_ROWS = 10_000;

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const AuditQuery = Type.Object(
  {
    actorType: Type.Optional(Type.Enum(ACTOR_TYPES)),
    actorId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    action: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[a-z0-9_.]+\\*?$',
        description: 'one action (`staff.login`), or every action under a prefix ending with `.` or `*` (`staff.`)',
      }),
    ),
    targetType: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z_]+$' })),
    targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    tenantId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'platform administrators: the rows about one tenant; operators may only name their own',
      }),
    ),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'inclusive' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'exclusive; after from' })),
    format: Type.Optional(
      Type.Enum(['json', 'csv'], {
        description:
          'csv: every matching row (limit and cursor ignored) as a download; also chosen by Accept: text/csv',
      }),
    ),
    order: ListOrderQuery,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: AUDIT_PAGE })),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

const Party = Type.Object({ type: Type.String(), id: Nullable(Type.String()) });

export const AuditEntry = Type.Object({
  id: Type.String(),
  occurredAt: Timestamp,
  actor: Party,
  action: Type.String(),
  target: Nullable(Party),
  tenantId: Nullable(Type.String({ description: 'the tenant the row is about, if any' })),
  outcome: Type.Enum(['success', 'failure', 'denied']),
  ip: Nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown(), { description: 'context; never a secret' }),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const auditListSchema = {
  tags: ['admin: audit'],
  operationId: 'listAuditEntries',
  summary: 'The audit log, newest first, filtered; as JSON pages or one CSV export',
  querystring: AuditQuery,
  response: {
    200: {
      description: 'a page of entries (JSON), or every matching entry as CSV',
      content: {
        'application/json': {
          schema: Type.Object({ entries: Type.Array(AuditEntry), nextCursor: Type.String() }),
        },
        'text/csv': {
          schema: Type.String({
            description:
              'header line id,occurredAt,actorType,actorId,action,targetType,targetId,tenantId,outcome,ip,details; ' +
              'CRLF line ends; cells starting with = + - @ are prefixed with an apostrophe',
          }),
        },
      },
    },
  },
  errors: [platformErrors.forbidden, auditErrors.export_too_large],
};

import { Type } from 'typebox';

/** The Idempotency-Key header of operations that must happen once however often they are sent. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.String({
    pattern: '^[A-Za-z0-9_.:-]{8,128}$',
    description: 'one key per operation; reuse it, with the same body and credential, on every retry',
  }),
});

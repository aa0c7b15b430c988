import { Type } from 'typebox';

/** The one error shape of every surface, published in the OpenAPI documents. */
export const ErrorResponse = Type.Object({
  error: Type.Object({
    code: Type.String({ description: 'stable machine-readable snake_case code' }),
    message: Type.String({ description: 'human-readable explanation' }),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
});

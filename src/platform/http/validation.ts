import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const STRICT_BODY: Options = {
  // Fastify's default removes unknown properties silently; a schema that forbids them must refuse them.
  removeAdditional: false,
  // A body is JSON: "100" is not a number and must be refused, not coerced.
  coerceTypes: false,
  useDefaults: true,
  allErrors: false,
  strict: false,
};

function newAjv(options: Options): Ajv {
  const ajv = new Ajv(options);
  addFormats.default(ajv);
  return ajv;
}

/** Bodies are checked strictly; query strings, params and headers are text, so they are coerced to their types. */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodies = newAjv(STRICT_BODY);
  const textParts = newAjv({ ...STRICT_BODY, coerceTypes: 'array' });
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : textParts).compile(schema as object);
}

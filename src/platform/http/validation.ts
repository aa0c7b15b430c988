import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';

const STRICT_BODY: Options = {
  // Fastify's default removes unknown properties silently; a schema that forbids them must refuse them.
  removeAdditional: false,
  // A body is JSON: "100" is not a number and must be refused, not coerced.
  coerceTypes: false,
  useDefaults: true,
  allErrors: false,
  strict: false,
  // A body that is one of several shapes named by a field (the feed's messages by `type`) is checked against that
  // shape alone, and its errors name that shape's fields.
  discriminator: true,
};

/** The keyword every string schema gets; see withPlainText. */
export const PLAIN_TEXT = 'x-plain-text';
export const PLAIN_TEXT_PROBLEM = 'must not contain NUL characters or unpaired surrogates';

/**
 * Text that PostgreSQL and JSON can hold as it was sent: no NUL character (text columns refuse it) and no lone
 * surrogate (jsonb refuses it, text columns would silently store U+FFFD instead).
 */
function isPlainText(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}

function newAjv(options: Options): Ajv {
  const ajv = new Ajv(options);
  addFormats.default(ajv);
  ajv.addKeyword({
    keyword: PLAIN_TEXT,
    type: 'string',
    schemaType: 'boolean',
    validate: (_enabled: boolean, value: string) => isPlainText(value),
  });
  return ajv;
}

/**
 * A copy of the schema in which every string schema also requires plain text. Applied to every schema the
 * server compiles, so no route, present or future, can forget it; the published documents keep the originals.
 */
function withPlainText(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withPlainText);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // Literal values (enum, const, default, examples) are data, not schemas.
    copy[key] = ['enum', 'const', 'default', 'examples'].includes(key) ? value : withPlainText(value);
  }
  if (copy.type === 'string' || (Array.isArray(copy.type) && copy.type.includes('string'))) copy[PLAIN_TEXT] = true;
  return copy;
}

/**
 * Bodies are checked strictly; query strings, params and headers are text, so they are coerced to their types.
 * `onFirstUse` compiles each schema at its route's first request (a test app's; see AppDeps).
 */
export function validatorCompiler(schemas: { onFirstUse: boolean }): FastifySchemaCompiler<unknown> {
  const bodies = newAjv(STRICT_BODY);
  const textParts = newAjv({ ...STRICT_BODY, coerceTypes: 'array' });
  const compile: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
    (httpPart === 'body' ? bodies : textParts).compile(withPlainText(schema) as object);
  if (!schemas.onFirstUse) return compile;
  return (route) => {
    let compiled: Validation | undefined;
    const validate: Validation = (data) => {
      compiled ??= compile(route);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    };
    return validate;
  };
}

/** A compiled check: Fastify reads its errors from the function once it answers false. */
type Validation = ReturnType<FastifySchemaCompiler<unknown>>;

/** Fastify's own response serializer (fast-json-stringify), each built at its route's first answer. */
export function serializerOnFirstUse(): FastifySerializerCompiler<unknown> {
  const build = SerializerSelector()({}, {});
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => (serialize ??= build(route as Parameters<typeof build>[0]))(data);
  };
}

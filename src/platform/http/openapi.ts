/**
 * The OpenAPI 3.1 documents, generated from the route schemas, and the human reference at /docs.
 *
 * Every route is completed here when it is registered, so no route has to remember: its security (from its
 * guards; public routes say `security: []`), a strict query string when it declares none, and one error
 * response per status listing the codes it can return: input errors from its schemas, the errors of its
 * guards, and the catalogued errors it declares in `schema.errors`.
 */
import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { platformErrors, type ErrorFactory } from '../errors.ts';
import { guardInfo, type GuardInfo } from './auth.ts';
import { contentSecurityPolicy, inlineScriptHashes, pageHeaders } from './headers.ts';
import type { TypedApp } from './types.ts';

declare module 'fastify' {
  interface FastifySchema {
    /** The catalogued errors this operation can answer with, besides input and guard errors. */
    errors?: readonly ErrorFactory[];
  }
}

export const PLATFORM_DOCUMENT_URL = '/api/v1/openapi.json';
export const DOCS_PATH = '/docs';

export interface DocumentSpec {
  /** Path prefix of the document's operations, e.g. `/api/v1/aggregator`; `/` for the whole API. */
  prefix: string;
  url: string;
  title: string;
  description: string;
  /** The document's own version when it is versioned apart from the service (the aggregator API: 1.0.0). */
  version?: string;
}

const LICENSE = { name: 'Proprietary', url: 'https://bookmaker.example/terms' };

/** Tags group operations by audience in the reference; each carries a description. */
const TAGS = [
  { name: 'aggregator', description: "An aggregator's server provisions casinos (clients) and their environments." },
  {
    name: 'integration',
    description: "The casino's server opens player sessions; the iframe exchanges launch tokens.",
  },
  { name: 'player', description: 'The iframe, for the signed-in player: the session.' },
  { name: 'player: wallet', description: 'The balance in the casino wallet, asked of the wallet each time.' },
  { name: 'player: bets', description: 'Bet placement and My Bets.' },
  { name: 'player: favourites', description: 'Favourite events and competitions, kept per player across devices.' },
  { name: 'player: settings', description: "The player's odds format, odds-change acceptance and quick stakes." },
  { name: 'catalog', description: 'Sports, competitions, events, markets and odds: anonymous browsing.' },
  {
    name: 'admin: staff',
    description: 'Staff sign-in (password + TOTP, first enrolment), the staff session, and staff accounts.',
  },
  { name: 'admin: audit', description: 'The audit log: who did what, when, with what outcome.' },
  {
    name: 'admin: aggregators',
    description: 'Platform administration of aggregators, authorizations, keys and clients.',
  },
  { name: 'admin: tenants', description: 'Tenant settings, embed origins, key and secret rotation.' },
  { name: 'admin: players', description: 'Player restrictions by the tenant operator or the platform.' },
  { name: 'admin: bets', description: "Staff look-up of a player's bets with their wallet postings." },
  { name: 'admin: trading', description: 'Traders: the catalog and its odds.' },
  { name: 'admin: feed', description: 'Platform administration of odds feed producers and their keys.' },
  {
    name: 'feed',
    description: "A feed producer's process pushes fixtures, prices, bet stops, event states and results.",
  },
  { name: 'health', description: 'Liveness and readiness probes.' },
];

const SECURITY_SCHEMES = {
  staffToken: { type: 'http', scheme: 'bearer', description: 'Staff token from POST /api/v1/admin/auth/login' },
  aggregatorKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'Aggregator API key (bm_agg_…), issued by the platform, server to server only',
  },
  integrationKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'Tenant integration key, sent with X-Tenant-ID; server to server only',
  },
  sessionToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'Player session token (bm_sess_…) from the launch exchange',
  },
  feedKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A feed producer's key (bm_feed_…), issued once when the producer is registered; server to server only",
  },
} as const;

/**
 * Registers the generator and completes every route registered after it; call before any route. `platform` is
 * the document of the whole API: what swagger() returns is exactly what its URL serves.
 */
export async function registerOpenApi(http: TypedApp, version: string, platform: DocumentSpec): Promise<void> {
  http.addHook('onRoute', completeRoute);
  await http.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: platform.title, version, description: platform.description, license: LICENSE },
      servers: [{ url: '/', description: 'this deployment' }],
      tags: TAGS,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
  });
}

/** Serves the documents as JSON and both in the reference page at /docs. */
export async function serveDocuments(http: TypedApp, documents: Array<DocumentSpec>): Promise<void> {
  for (const document of documents) {
    http.get(document.url, { schema: { hide: true } }, async () => subDocument(http, document));
  }
  // Scalar's routes join the context they are registered in (it is a fastify-plugin), so this hook is theirs.
  await http.register(async (docs: FastifyInstance) => {
    docs.addHook('onSend', async (_request, reply, payload) => {
      const html = String(reply.getHeader('content-type')).startsWith('text/html') && typeof payload === 'string';
      reply.headers(pageHeaders(docsPolicy(html ? payload : '')));
    });
    await registerReference(docs, documents);
  });
}

async function registerReference(docs: FastifyInstance, documents: Array<DocumentSpec>): Promise<void> {
  await docs.register(scalar, {
    routePrefix: DOCS_PATH,
    configuration: {
      pageTitle: 'Bookmaker API reference',
      sources: documents.map((document) => ({ title: document.title, url: document.url })),
      // Self-contained: no fonts, telemetry or hosted services from outside this deployment.
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
    },
  });
}

/**
 * The policy of /docs and everything under it. The page runs its bundled script (`'self'`) and one inline script
 * of Scalar's that starts it, allowed by its hash; Scalar injects its styles at run time (`'unsafe-inline'` for
 * styles only) and fetches the two documents from this deployment. Nothing may frame it.
 */
function docsPolicy(page: string): string {
  return contentSecurityPolicy({
    'script-src': ["'self'", ...inlineScriptHashes(page)],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
  });
}

/** The document of one audience: the same generated operations, only those under its prefix. */
export function subDocument(http: TypedApp, document: DocumentSpec) {
  const full = http.swagger() as {
    info: Record<string, unknown>;
    paths?: Record<string, Record<string, { tags?: string[]; security?: Array<Record<string, string[]>> }>>;
    components?: Record<string, unknown>;
  };
  if (document.prefix === '/') return full;
  const paths = Object.fromEntries(
    Object.entries(full.paths ?? {})
      .filter(([path]) => path.startsWith(`${document.prefix}/`))
      .map(([path, item]) => [path.slice(document.prefix.length), item]),
  );
  const operations = Object.values(paths).flatMap((item) => Object.values(item));
  const usedTags = new Set(operations.flatMap((operation) => operation.tags ?? []));
  const usedSchemes = new Set(operations.flatMap((operation) => (operation.security ?? []).flatMap(Object.keys)));
  return {
    openapi: '3.1.0',
    info: {
      title: document.title,
      version: document.version ?? full.info.version,
      description: document.description,
      license: LICENSE,
    },
    servers: [{ url: document.prefix, description: 'this deployment' }],
    tags: TAGS.filter((tag) => usedTags.has(tag.name)),
    components: {
      securitySchemes: Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => usedSchemes.has(name))),
    },
    paths,
  };
}

type Schema = NonNullable<RouteOptions['schema']> & {
  hide?: boolean;
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  response?: Record<string, unknown>;
};

/** The onRoute hook: security, strict query string and error responses for every documented route. */
function completeRoute(route: RouteOptions): void {
  const schema = (route.schema ?? {}) as Schema;
  if (schema.hide || route.method === 'HEAD') return;
  if (!schema.operationId) throw new Error(`${String(route.method)} ${route.url} needs an operationId in its schema`);
  const guards = [route.onRequest, route.preHandler]
    .flat()
    .map(guardInfo)
    .filter((info): info is GuardInfo => info !== undefined);
  schema.security ??= guards.flatMap((info) => info.security);
  // Unknown query parameters are refused like unknown body fields.
  schema.querystring ??= Type.Object({}, { additionalProperties: false });
  const errors = [
    ...inputErrors(schema, [route.method].flat()),
    ...guards.flatMap((info) => info.errors),
    ...(schema.errors ?? []),
  ];
  schema.response = { ...(schema.response ?? {}), ...errorResponses(errors) };
  route.schema = schema;
}

/**
 * Every route validates its query string, and every request is refused before its route when its URL cannot be
 * read or is too long, or when the service is shutting down (router-failures.ts); methods that carry a body also
 * parse it, declared or not.
 */
function inputErrors(schema: Schema, methods: string[]): ErrorFactory[] {
  const parsesBody = schema.body !== undefined || methods.some((method) => BODY_METHODS.has(method));
  const body = parsesBody
    ? [platformErrors.bad_request, platformErrors.payload_too_large, platformErrors.unsupported_media_type]
    : [];
  const beforeRoute = [platformErrors.malformed_url, platformErrors.url_too_long, platformErrors.shutting_down];
  return [platformErrors.validation, ...beforeRoute, ...body];
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One response per status; its schema names the codes that status can carry and what each means. */
function errorResponses(errors: readonly ErrorFactory[]): Record<number, TSchema> {
  const byStatus = new Map<number, Map<string, ErrorFactory>>();
  for (const error of errors) {
    const codes = byStatus.get(error.status) ?? new Map<string, ErrorFactory>();
    codes.set(error.code, error);
    byStatus.set(error.status, codes);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => {
      const list = [...codes.values()].sort((a, b) => a.code.localeCompare(b.code));
      return [status, errorSchema(list)];
    }),
  );
}

function errorSchema(errors: ErrorFactory[]): TSchema {
  return Type.Object(
    {
      error: Type.Object({
        code: Type.Enum(
          errors.map((error) => error.code),
          { description: 'stable machine-readable code' },
        ),
        message: Type.String({ description: 'for people; may change' }),
        details: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'structured context' })),
        requestId: Type.String({
          description: "the answer's X-Request-Id, which the service's log lines of this request carry as reqId",
        }),
      }),
    },
    { description: errors.map((error) => `${error.code}: ${error.message}`).join(' | ') },
  );
}

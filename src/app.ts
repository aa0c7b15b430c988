import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import type { DestinationStream } from 'pino';
import { healthRoutes } from './health/routes.ts';
import { AuditLog } from './platform/audit.ts';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import { SecretBox } from './platform/crypto.ts';
import type { Db } from './platform/db/database.ts';
import { installErrorHandling } from './platform/http/errors.ts';
import { loggerOptions } from './platform/http/logging.ts';
import type { TypedApp } from './platform/http/types.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import { PeriodicJob } from './platform/jobs.ts';
import { staffRoutes } from './staff/routes.ts';
import { StaffService } from './staff/service.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** Where logs go; tests pass a stream to read them back. Defaults to stdout. */
  logStream?: DestinationStream;
}

export interface App {
  http: TypedApp;
  services: { staff: StaffService };
  jobs: PeriodicJob[];
}

const BODY_LIMIT_BYTES = 64 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const HOUR_MS = 60 * 60 * 1000;

/** Wires the domains together: services from their dependencies, routes from their services. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const http = Fastify({
    logger: loggerOptions(deps.config.logLevel, deps.logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  }).withTypeProvider() as unknown as TypedApp;
  http.setValidatorCompiler(validatorCompiler());
  installErrorHandling(http);
  installResponseDefaults(http);
  await registerOpenApi(http);

  const secrets = new SecretBox(deps.config.secretsKeys);
  const audit = new AuditLog(deps.clock);
  const staff = new StaffService({ db: deps.db, clock: deps.clock, secrets, audit });

  healthRoutes(http, deps.db);
  staffRoutes(http, staff);

  const jobs = [new PeriodicJob('purge-stale-staff-tokens', HOUR_MS, () => staff.purgeStaleTokens(), http.log)];
  return { http, services: { staff }, jobs };
}

function installResponseDefaults(http: TypedApp): void {
  http.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers carry credentials or personal data: never cached unless a route says otherwise.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}

async function registerOpenApi(http: TypedApp): Promise<void> {
  await http.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bookmaker API',
        version: '1.0.0',
        description: 'Every endpoint of the service. Errors always use the shape { error: { code, message, details? } }.',
      },
      components: {
        securitySchemes: {
          staffToken: { type: 'http', scheme: 'bearer', description: 'Staff token from POST /api/v1/admin/auth/login' },
        },
      },
    },
  });
  http.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => http.swagger());
}

import { AGGREGATOR_PREFIX } from './aggregator/routes.ts';
import { PLATFORM_DOCUMENT_URL, type DocumentSpec } from './platform/http/openapi.ts';

/** The two published documents: the whole API, and the aggregator's own (version 1.0.0 by contract). */
export const DOCUMENTS: DocumentSpec[] = [
  {
    prefix: '/',
    url: PLATFORM_DOCUMENT_URL,
    title: 'Bookmaker API',
    description: [
      'Every endpoint of the service: the aggregator API, the integration API of casino servers, the player API of',
      'the iframe, the catalog, and the admin API of staff.',
      '',
      '- Errors always have the shape `{ "error": { "code", "message", "details"?, "requestId" } }` and',
      '  `Cache-Control: no-store`; each operation lists the codes it can answer with, per status. `requestId` is the',
      "  answer's `X-Request-Id`: quote it when you report a problem.",
      '- Bodies are JSON (`Content-Type: application/json`, at most 64 KiB); unknown fields and query parameters',
      '  are refused with 400 `validation`, which names the field in `details.field`.',
    ].join('\n'),
  },
  {
    prefix: AGGREGATOR_PREFIX,
    url: `${AGGREGATOR_PREFIX}/openapi.json`,
    title: 'Bookmaker aggregator API',
    version: '1.0.0',
    description: [
      'Server-to-server provisioning of casinos (clients) by an authorized aggregator.',
      '',
      '- `Authorization: Bearer bm_agg_…` (your aggregator key); requests carrying `Origin` or `X-Tenant-ID` are',
      '  refused.',
      '- Every POST needs `Idempotency-Key` (`^[A-Za-z0-9_.:-]{8,128}$`); the original response is replayed for',
      '  24 h with `Idempotency-Replayed: true`.',
      '- Errors: `{ "error": { "code", "message", "details"?, "requestId" } }` with `Cache-Control: no-store`; each',
      "  operation lists its codes per status. `requestId` is the answer's `X-Request-Id`: quote it in a report.",
      '- At most 120 requests a minute per aggregator (429 `rate_limited`, `Retry-After: 60`); repeated failed',
      '  attempts from one address are limited too.',
    ].join('\n'),
  },
];

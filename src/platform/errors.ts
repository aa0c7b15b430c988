/**
 * The one error type every layer throws; the HTTP layer renders it as { error: { code, message, details?, requestId } }.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: string,
    status: number,
    message: string,
    details?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = details;
    this.headers = headers;
  }
}

export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown>; requestId: string };
}

/** What an error answer says, before the request it answers is known. */
export interface Failure {
  code: string;
  message: string;
  details?: Record<string, unknown> | undefined;
}

/**
 * The one error shape. `requestId` is the answer's X-Request-Id and the `reqId` of the request's log lines, so a
 * partner who quotes a refusal points at its lines.
 */
export function errorBody(requestId: string, { code, message, details }: Failure): ErrorBody {
  return { error: details === undefined ? { code, message, requestId } : { code, message, details, requestId } };
}

/** One entry of a domain's error catalogue: the HTTP status is decided here, never where the error is thrown. */
export interface ErrorSpec {
  status: number;
  /** The default message, also the description in the OpenAPI documents. */
  message: string;
  /** Response headers the error carries, from its details (Retry-After, ...). */
  headers?: (details: Record<string, unknown>) => Record<string, string>;
}

/**
 * Throws one catalogued error. A throw site may give a more precise sentence than the default message (naming
 * the field or the value); the code and the status are the catalogue's.
 */
export interface ErrorFactory {
  (details?: Record<string, unknown>, message?: string): AppError;
  readonly code: string;
  readonly status: number;
  readonly message: string;
}

export type ErrorCatalogue<T extends Record<string, ErrorSpec>> = { readonly [K in keyof T]: ErrorFactory };

/** Declares a domain's error codes once: code, HTTP status and message. Services throw them by name. */
export function defineErrors<const T extends Record<string, ErrorSpec>>(specs: T): ErrorCatalogue<T> {
  const catalogue: Record<string, ErrorFactory> = {};
  for (const [code, spec] of Object.entries(specs)) {
    const factory = (details?: Record<string, unknown>, message?: string) =>
      new AppError(code, spec.status, message ?? spec.message, details, details && spec.headers?.(details));
    catalogue[code] = Object.assign(factory, { code, status: spec.status, message: spec.message });
  }
  return catalogue as ErrorCatalogue<T>;
}

/** Codes every surface shares: input, authentication, absence, limits, our own failures. */
export const platformErrors = defineErrors({
  validation: { status: 400, message: 'A field breaks its rule; details.field names it.' },
  bad_request: { status: 400, message: 'The body is not valid JSON.' },
  malformed_url: {
    status: 400,
    message: 'The URL has a malformed percent-encoding (details.in: path or querystring).',
  },
  unauthorized: { status: 401, message: 'Missing or invalid credentials.' },
  forbidden: { status: 403, message: 'You are not allowed to do this.' },
  not_found: { status: 404, message: 'Not found.' },
  method_not_allowed: {
    status: 405,
    message: 'The path exists with other methods; see the Allow header.',
    headers: (details) => ({ allow: (details.allowed as string[]).join(', ') }),
  },
  request_timeout: { status: 408, message: 'The request was not received in time.' },
  conflict: { status: 409, message: 'The change conflicts with existing state.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  url_too_long: { status: 414, message: 'The URL is longer than the service reads (details.maxLength).' },
  unsupported_media_type: { status: 415, message: 'Send the body as application/json.' },
  origin_not_allowed: {
    status: 403,
    message: 'The aggregator API is server to server; requests carrying an Origin header are refused.',
  },
  tenant_header_not_allowed: { status: 400, message: 'The aggregator API takes no X-Tenant-ID header.' },
  scope_missing: { status: 403, message: 'The API key lacks the scope this operation needs (details.requiredScope).' },
  rate_limited: {
    status: 429,
    message: 'Too many requests; wait for Retry-After seconds.',
    headers: (details) => ({ 'retry-after': String(details.retryAfterSeconds) }),
  },
  headers_too_large: {
    status: 431,
    message: 'The request line and headers together are larger than the service reads (details.maxBytes).',
  },
  internal: { status: 500, message: 'Something went wrong on our side; it has been logged.' },
  not_ready: { status: 503, message: 'The service is not ready.' },
  shutting_down: { status: 503, message: 'The service is shutting down; send the request again.' },
});

export const notFound = (what: string): AppError => platformErrors.not_found(undefined, `${what} not found.`);

export const validationError = (field: string, message: string, details: Record<string, unknown> = {}): AppError =>
  platformErrors.validation({ field, ...details }, message);

import type { ApiRequest, ApiResponse, Operation } from '../../ui-shared/api-shapes.ts';
import { t } from './messages.ts';

export type { ApiRequest, ApiResponse };

/** A refusal of the admin API in the one error shape, or `network` when no answer came. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** The field a validation error names (`details.field`), to show the message beside it. */
  get field(): string | undefined {
    return typeof this.details.field === 'string' ? this.details.field : undefined;
  }
}

/** How the API client reaches the session: the token (kept in memory only) and what to do when it ends. */
interface SessionHooks {
  token(): string | null;
  /** The API answered 401 to the current token: the session is over (expired, idle, revoked). */
  ended(error: ApiError): void;
  /** A request was made for the staff member: the session is in use. */
  used(): void;
}

let session: SessionHooks = { token: () => null, ended: () => {}, used: () => {} };
export function connectSession(hooks: SessionHooks): void {
  session = hooks;
}

type QueryValue = string | number | boolean | undefined | null | string[];

/** `?a=1&b=x`, without the parameters that are not set. */
function queryString(query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((item) => params.append(name, item));
    else params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

interface CallOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Sign-in calls: no token, and a 401 is a wrong credential, not an ended session. */
  anonymous?: boolean;
  /** The token just issued, before the session holds it. */
  token?: string;
}

/** One admin API call, typed by its operationId: the answer is the operation's successful body. */
export async function call<Op extends Operation>(
  _operation: Op,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<Op>> {
  return (await send(method, path + queryString(options.query), options)).json as ApiResponse<Op>;
}

/** A text answer (a CSV export), with the same authentication and errors as call(). */
export async function callText(path: string, query: Record<string, QueryValue>): Promise<string> {
  return (await send('GET', path + queryString(query), { headers: { accept: 'text/csv' } })).text;
}

async function send(method: string, url: string, options: CallOptions): Promise<{ json: unknown; text: string }> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = options.anonymous ? null : (options.token ?? session.token());
  if (!options.anonymous && !token) throw new ApiError(401, 'unauthorized', t.notSignedIn);
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, cache: 'no-store', signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'network', t.unreachable);
  }
  if (!options.anonymous) session.used();
  const text = await response.text();
  let json: unknown;
  try {
    json = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (response.ok) return { json, text };
  const error = (json as { error?: { code?: string; message?: string; details?: Record<string, unknown> } })?.error;
  const failure = new ApiError(
    response.status,
    error?.code ?? `http_${response.status}`,
    error?.message ?? response.statusText,
    error?.details ?? {},
  );
  if (response.status === 401 && !options.anonymous) session.ended(failure);
  throw failure;
}

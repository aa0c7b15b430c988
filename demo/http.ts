/** A JSON call to one of the demo's servers, from Node: what the casino's and the aggregator's servers do. */

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

/** An answer that was not 2xx: the status, the API error code when there is one, and the text. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: unknown;
  constructor(what: string, status: number, body: unknown, text: string) {
    const code = errorCode(body);
    super(`${what}: HTTP ${status}${code ? ` ${code}` : ''}: ${text.slice(0, 500)}`);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

function errorCode(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = body.error;
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = error.code;
  return typeof code === 'string' ? code : undefined;
}

/** Sends JSON, reads JSON; throws HttpError for anything but 2xx. The caller names the type it expects. */
export async function callJson<T>(base: string, method: string, path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(base + path, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) throw new HttpError(`${method} ${path}`, response.status, parsed, text);
  return parsed as T;
}

/** The one error type every layer throws; the HTTP layer renders it as { error: { code, message, details? } }. */
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
  error: { code: string; message: string; details?: Record<string, unknown> };
}

export function errorBody(code: string, message: string, details?: Record<string, unknown>): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export const unauthorized = (message = 'Missing or invalid credentials.'): AppError =>
  new AppError('unauthorized', 401, message);

export const forbidden = (message = 'You are not allowed to do this.'): AppError =>
  new AppError('forbidden', 403, message);

export const notFound = (what = 'Resource'): AppError => new AppError('not_found', 404, `${what} not found.`);

export const validationError = (field: string, message: string): AppError =>
  new AppError('validation', 400, message, { field });

import type { ApiErrorBody } from '../lib/api-error.ts';

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 502 | 503;

/** An error a handler throws on purpose; the app's onError turns it into the spec's error body. */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly code: string;
  readonly details: ApiErrorBody['details'];
  readonly headers: Record<string, string>;

  constructor(
    status: ErrorStatus,
    code: string,
    message: string,
    options: { details?: ApiErrorBody['details']; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

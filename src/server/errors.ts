import type { Refusal } from '../core/errors.ts';
import type { ApiErrorBody } from '../model/api-error.ts';
import type { RefusalCode } from '../model/messages.ts';

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 500 | 502 | 503;

/** An error a handler throws on purpose; the app's onError turns it into the API's error body (src/model/api-error.ts). */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly code: RefusalCode;
  readonly details: ApiErrorBody['details'];
  readonly headers: Record<string, string>;

  constructor(
    status: ErrorStatus,
    code: RefusalCode,
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

/** The status of each kind of refusal a service throws (core/errors.ts). */
export const REFUSAL_STATUS: Record<Refusal, ErrorStatus> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  gone: 410,
  'too-large': 413,
  unavailable: 503,
  'upstream-failed': 502,
};

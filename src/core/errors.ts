import type { ApiErrorBody } from '../model/api-error.ts';
import type { RefusalCode } from '../model/messages.ts';

/**
 * Why a service refused what it was asked. Services know nothing of HTTP: the API gives each kind
 * its status (server/errors.ts), a job decides for itself what a refusal means to it.
 */
export type Refusal =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'gone'
  | 'too-large'
  | 'unavailable'
  | 'upstream-failed';

/** A rule of the product said no: the message is for the user, `code` for programs. */
export class ServiceError extends Error {
  readonly refusal: Refusal;
  readonly code: RefusalCode;
  readonly details: ApiErrorBody['details'];

  constructor(refusal: Refusal, code: RefusalCode, message: string, details?: ApiErrorBody['details']) {
    super(message);
    this.refusal = refusal;
    this.code = code;
    this.details = details;
  }
}

/** A scan that was not started: the domain, its plan or the day's quota does not allow it now. */
export class ScanRefused extends ServiceError {}

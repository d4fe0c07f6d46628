import { bodyLimit } from 'hono/body-limit';
import { INPUT_MESSAGES } from '../../model/messages.ts';
import { ApiError } from '../errors.ts';

/** Refuses a request body over `kilobytes` with 413 in the API's error shape (src/model/api-error.ts), before it is read. */
export function limitBody(kilobytes: number) {
  return bodyLimit({
    maxSize: kilobytes * 1024,
    onError: () => {
      throw new ApiError(413, 'PAYLOAD_TOO_LARGE', INPUT_MESSAGES.bodyTooLarge(kilobytes));
    },
  });
}

import type { Context } from 'hono';
import type { z } from 'zod';
import { parseInput } from '../core/validation.ts';
import { ApiError } from './errors.ts';

/**
 * Reads a JSON request body and validates it: 415 for another content type, 400 for malformed JSON
 * or a body that does not match the schema, with each problem named. Size is capped earlier, by the
 * body-limit middleware.
 */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'The request body is not valid JSON');
  }
  return parseInput(schema, body);
}

import { z } from 'zod';

/**
 * The one error body every API answer uses. The browser's request layer reads `error` as the
 * server message; `code` is a stable machine-readable name; `requestId` ties it to the server log.
 */
export const apiErrorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
  statusCode: z.number().int(),
  requestId: z.string().optional(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

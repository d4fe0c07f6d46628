import type { Logger } from 'pino';

/** Variables every request carries through the Hono context. */
export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    clientAddress: string;
  };
}

import type { Logger } from 'pino';

/** Runs until SIGINT or SIGTERM, then stops cleanly (a scan in flight goes back to pending). */
export function untilSignal(stop: () => Promise<void>, logger: Logger): Promise<void> {
  return new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      stop().then(resolve, resolve);
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });
}

import { flushCompileCache } from 'node:module';
import type { Logger } from 'pino';

/** Runs until SIGINT or SIGTERM, then stops cleanly (a scan in flight goes back to pending). */
export function untilSignal(stop: () => Promise<void>, logger: Logger): Promise<void> {
  // Everything the process runs is loaded by now: the compile cache (bin/danglewatch.js) is written
  // now rather than at exit, which a killed process never reaches.
  flushCompileCache();
  return new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      stop().then(resolve, resolve);
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });
}

import { loadConfig } from '../server/config.ts';
import { startServer } from '../server/main.ts';
import { ensureSiteBuilt } from './build-site.ts';

export async function serve(): Promise<number> {
  const config = loadConfig();
  ensureSiteBuilt((line) => process.stdout.write(`${line}\n`));
  const { stop, logger } = await startServer(config);
  await new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      stop().then(resolve, resolve);
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });
  return 0;
}

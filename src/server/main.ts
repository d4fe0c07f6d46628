import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { migrationsApplied } from '../db/client.ts';
import { openConfiguredDatabase, outboxDir, startConfiguredWorker } from '../worker/main.ts';
import { startQueue } from '../worker/queue.ts';
import { engineSettings } from '../worker/scan-options.ts';
import { createApp } from './app.ts';
import { setupAuth } from './auth/setup.ts';
import { findUser } from './auth/users.ts';
import { billingFromConfig } from './billing/stripe.ts';
import { authExposure, type Config, loadConfig } from './config.ts';
import { newOperatorToken, publishOperatorChannel } from './operator/channel.ts';
import { loadSite } from './site.ts';

const distDir = fileURLToPath(new URL('../../dist', import.meta.url));

export const API_ONLY_NEEDS_POSTGRES =
  'An API process without a worker (--no-worker) needs PostgreSQL (DATABASE_URL): on the embedded ' +
  'database (PGlite) no other process could run its scans.';

export interface ServerOptions {
  /** Run the job workers in this process too (the default); false: API and site only. */
  worker?: boolean;
}

/**
 * Starts the API and the built site, and by default the workers, in this process, on the database
 * the configuration names. Resolves once listening.
 */
export async function startServer(config: Config = loadConfig(), options: ServerOptions = {}) {
  const withWorker = options.worker ?? true;
  const logger = pino({ level: config.LOG_LEVEL });
  // Before anything opens: a refused configuration leaves no database or emulator behind.
  const exposure = authExposure(config);
  if (exposure.verdict === 'refuse') throw new Error(exposure.message);
  if (!withWorker && !config.DATABASE_URL) throw new Error(API_ONLY_NEEDS_POSTGRES);
  if (exposure.verdict === 'warn') logger.warn(exposure.message);
  const database = await openConfiguredDatabase(config, logger);
  const auth = await setupAuth(config, logger);
  const engine = engineSettings(config);
  const jobs = withWorker
    ? await startConfiguredWorker(config, database, logger)
    : await startQueue(database, logger);
  const operatorToken = newOperatorToken();
  const app = createApp({
    db: database.db,
    logger,
    site: loadSite(distDir),
    csp: {
      mode: config.NODE_ENV === 'development' ? 'development' : 'production',
      apiOrigin: config.PUBLIC_API_BASE ? new URL(config.PUBLIC_API_BASE).origin : undefined,
      ...auth.csp,
    },
    auth: { ...auth.deps, findAccount: (uid) => findUser(database.db, uid) },
    isReady: () => migrationsApplied(database),
    trustProxy: config.TRUST_PROXY,
    scanning: { queue: jobs.queue, queueUp: jobs.isUp, resolvers: engine.resolvers },
    operatorToken,
    billing: billingFromConfig(config),
    publicUrl: config.PUBLIC_URL,
    webhooks: {
      enqueue: jobs.enqueueDelivery,
      allowPrivate: engine.allowPrivate ?? false,
      resolvers: engine.resolvers,
    },
    outage: database.kind === 'postgres' ? database.outage : undefined,
    outboxDir: outboxDir(config),
  });
  let port = config.PORT;
  const server = await new Promise<ReturnType<typeof serve>>((resolveServer) => {
    const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
      port = info.port;
      logger.info(
        {
          url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${info.port}`,
          database: database.kind,
          worker: withWorker,
        },
        'DangleWatch is running',
      );
      resolveServer(s);
    });
  });
  // Only this process may open the embedded database: `danglewatch users` asks the server instead.
  const loopback = ['127.0.0.1', '::1', 'localhost', '0.0.0.0', '::'].includes(config.HOST);
  const closeChannel =
    database.kind === 'pglite' && loopback
      ? publishOperatorChannel(config.dataDir, { url: `http://127.0.0.1:${port}`, token: operatorToken })
      : () => {};
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      closeChannel();
      await new Promise<void>((done) => server.close(() => done()));
      await jobs.stop();
      await database.close();
      await auth.stop();
    })();
    return stopping;
  };
  return { server, stop, logger, database };
}

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { migrateDatabase, migrationsApplied, openDatabase } from '../db/client.ts';
import { startWorker } from '../worker/queue.ts';
import { engineSettings } from '../worker/scan-options.ts';
import { createApp } from './app.ts';
import { setupAuth } from './auth/setup.ts';
import { billingFromConfig } from './billing/stripe.ts';
import { authExposure, type Config, loadConfig } from './config.ts';
import { createMailer } from './mail/mailer.ts';
import { newOperatorToken, publishOperatorChannel } from './operator/channel.ts';
import { loadSite } from './site.ts';

const distDir = fileURLToPath(new URL('../../dist', import.meta.url));

/** Starts the whole product in one process: API, built site, database. Resolves once listening. */
export async function startServer(config: Config = loadConfig()) {
  const logger = pino({ level: config.LOG_LEVEL });
  // Before anything opens: a refused configuration leaves no database or emulator behind.
  const exposure = authExposure(config);
  if (exposure.verdict === 'refuse') throw new Error(exposure.message);
  if (exposure.verdict === 'warn') logger.warn(exposure.message);
  const database = await openDatabase(
    config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { dataDir: config.dataDir },
  );
  await migrateDatabase(database);
  const auth = await setupAuth(config, logger);
  const engine = engineSettings(config);
  const publicUrl =
    config.PUBLIC_URL ??
    `http://${['0.0.0.0', '::'].includes(config.HOST) ? 'localhost' : config.HOST}:${config.PORT}`;
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: join(config.dataDir, 'outbox'),
    logger,
  });
  const worker = await startWorker(database, logger, engine, { mailer, publicUrl });
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
    auth: auth.deps,
    isReady: () => migrationsApplied(database),
    trustProxy: config.TRUST_PROXY,
    scanning: { queue: worker.queue, queueUp: worker.isUp, resolvers: engine.resolvers },
    operatorToken,
    billing: billingFromConfig(config),
    publicUrl: config.PUBLIC_URL,
    webhooks: { enqueue: worker.enqueueDelivery, allowPrivate: engine.allowPrivate ?? false },
  });
  let port = config.PORT;
  const server = await new Promise<ReturnType<typeof serve>>((resolveServer) => {
    const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
      port = info.port;
      logger.info(
        {
          url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${info.port}`,
          database: database.kind,
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
      await worker.stop();
      await database.close();
      await auth.stop();
    })();
    return stopping;
  };
  return { server, stop, logger, database };
}

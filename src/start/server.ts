import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { stripeClient } from '../connectors/stripe/stripe.ts';
import type { Billing } from '../core/billing/stripe.ts';
import { loadSecretsKey } from '../core/connections/secrets.ts';
import { newOperatorToken, publishOperatorChannel } from '../core/operator/channel.ts';
import { setServerPlan } from '../core/server-plan.ts';
import { findUser } from '../core/users/users.ts';
import { migrationsApplied } from '../db/client.ts';
import { proofsOff } from '../scanner/proof/settings.ts';
import { createApp } from '../server/app.ts';
import { loadSite } from '../server/site.ts';
import { startQueue } from '../worker/queue.ts';
import { setupAuth } from './auth.ts';
import { authExposure, type Config, loadConfig } from './config.ts';
import { engineSettings, integrationUrls } from './engine-settings.ts';
import { configuredMailer, openConfiguredDatabase, outboxDir, startConfiguredWorker } from './worker.ts';

const distDir = fileURLToPath(new URL('../../dist', import.meta.url));

export const API_ONLY_NEEDS_POSTGRES =
  'An API process without a worker (--no-worker) needs PostgreSQL (DATABASE_URL): on the embedded ' +
  'database (PGlite) no other process could run its scans.';

interface ServerOptions {
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
  setServerPlan(config.serverPlan);
  const database = await openConfiguredDatabase(config, logger);
  const auth = await setupAuth(config, logger);
  const engine = engineSettings(config);
  const secrets = loadSecretsKey(config, logger);
  const jobs = withWorker
    ? await startConfiguredWorker(config, database, logger, secrets)
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
    scanning: {
      queue: jobs.queue,
      queueUp: jobs.isUp,
      resolvers: engine.resolvers,
      proofsOff: proofsOff(engine.proof),
    },
    operatorToken,
    billing: billingFromConfig(config),
    publicUrl: config.PUBLIC_URL,
    mailer: configuredMailer(config, logger),
    webhooks: {
      enqueue: jobs.enqueueDelivery,
      allowPrivate: engine.allowPrivate ?? false,
      resolvers: engine.resolvers,
    },
    outage: database.kind === 'postgres' ? database.outage : undefined,
    outboxDir: outboxDir(config),
    dnsConnections: { secrets, enqueueSync: jobs.enqueueSync },
    cloudAccounts: { secrets, enqueueSync: jobs.enqueueCloudSync },
    integrations: { secrets, enqueue: jobs.enqueueIntegration, urls: integrationUrls(config) },
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

/** Billing from the configuration, or undefined when STRIPE_SECRET_KEY is not set. */
function billingFromConfig(config: Config): Billing | undefined {
  if (!config.STRIPE_SECRET_KEY) return undefined;
  return {
    stripe: stripeClient(config.STRIPE_SECRET_KEY, config.STRIPE_API_URL),
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    prices: config.STRIPE_PRICES ?? {},
  };
}

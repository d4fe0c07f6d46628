import { randomUUID } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { Logger } from 'pino';
import type { Billing } from '../core/billing/stripe.ts';
import type { ScanQueue } from '../core/domains/scan-requests.ts';
import { ServiceError } from '../core/errors.ts';
import { INVITATION_PREVIEW_RATE, MAILING_LIST_RATE } from '../core/limits.ts';
import type { Mailer } from '../core/mail/mailer.ts';
import type { Db } from '../db/client.ts';
import { type DatabaseOutage, isDatabaseUnavailable } from '../db/outage.ts';
import type { ApiErrorBody } from '../model/api-error.ts';
import { REFUSALS, type RefusalCode } from '../model/messages.ts';
import type { ProofCheckId } from '../model/proof.ts';
import type { AuthDeps } from './auth/middleware.ts';
import { type CspOptions, contentSecurityPolicy } from './csp.ts';
import type { AppEnv } from './env.ts';
import { ApiError, REFUSAL_STATUS } from './errors.ts';
import type { RateLimitRule } from './middleware/rate-limit.ts';
import { accountRoutes } from './routes/account.ts';
import { alertRoutes } from './routes/alerts.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { authRoutes } from './routes/auth.ts';
import { billingRoutes } from './routes/billing.ts';
import { type CloudAccountDeps, cloudAccountRoutes } from './routes/cloud-accounts.ts';
import { type DnsConnectionDeps, dnsConnectionRoutes } from './routes/dns-connections.ts';
import { domainRoutes } from './routes/domains.ts';
import { findingRoutes } from './routes/findings.ts';
import { healthRoutes } from './routes/health.ts';
import { type IntegrationDeps, integrationRoutes } from './routes/integrations.ts';
import { invitationRoutes } from './routes/invitations.ts';
import { mailingListRoutes } from './routes/mailing-list.ts';
import { operatorRoutes } from './routes/operator.ts';
import { profileRoutes } from './routes/profile.ts';
import { publicApiRoutes } from './routes/public-api.ts';
import { scanRoutes } from './routes/scans.ts';
import { type WebhookDeps, webhookRoutes } from './routes/webhooks.ts';
import { workspaceRoutes } from './routes/workspaces.ts';
import type { Site } from './site.ts';

export interface AppDeps {
  db: Db;
  logger: Logger;
  site: Site;
  csp: Omit<CspOptions, 'scriptHashes' | 'styleHashes' | 'upgradeInsecureRequests'>;
  isReady: () => Promise<boolean>;
  /** Read the client address from X-Forwarded-For: only behind a proxy that sets it. */
  trustProxy?: boolean;
  limits?: { mailingList?: RateLimitRule; invitationPreview?: RateLimitRule };
  /** Firebase ID-token verification; without it, authenticated routes answer 503. */
  auth?: AuthDeps;
  /** The scan queue and the engine's resolvers; without them, starting a scan answers 503. */
  scanning?: {
    queue: ScanQueue;
    queueUp: () => boolean;
    resolvers?: string[];
    /** Proof checks off for want of probe credentials, for the health answer. */
    proofsOff?: ProofCheckId[];
  };
  /** The clock of the dashboard routes; tests move it. */
  now?: () => Date;
  /** Webhook deliveries (the queue) and the address rules; without them, 'Send test' answers 503. */
  webhooks?: WebhookDeps;
  /** Stripe billing; without it the plan tab says billing is not configured. */
  billing?: Billing;
  /** The public address of the site (PUBLIC_URL): where Stripe sends the browser back. */
  publicUrl?: string;
  /** Sends what the API mails itself (workspace invitations); without it they are not mailed. */
  mailer?: Mailer;
  /** Enables /operator (see src/core/operator/channel.ts) for this token. */
  operatorToken?: string;
  /** DNS provider connections: the key credentials are sealed with, the providers' URLs, syncs. */
  dnsConnections?: Omit<DnsConnectionDeps, 'queue' | 'now' | 'resolvers'>;
  /** Cloud accounts: the same sealing key, the clouds' endpoints, syncs. */
  cloudAccounts?: CloudAccountDeps;
  /** Trackers and pagers: the key credentials are sealed with, the delivery queue, the services' URLs. */
  integrations?: IntegrationDeps;
  /** Where alert e-mails are written without SMTP (DATA_DIR/outbox). */
  outboxDir?: string;
  /** Hears of queries that failed because the database went away, so the outage is logged once. */
  outage?: DatabaseOutage;
}

const NO_QUEUE: ScanQueue = {
  enqueue: async () => {
    throw new ApiError(503, 'SCANNING_UNAVAILABLE', 'Scanning is not running on this server');
  },
};

/** What a 503 during a database outage tells clients to wait before trying again. */
const DATABASE_RETRY_AFTER_SECONDS = 2;

const API_PREFIXES = ['/api/', '/auth/', '/scan/', '/mailing-list', '/operator/', '/alerts/'];

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    const logger = deps.logger.child({ requestId });
    c.set('requestId', requestId);
    c.set('logger', logger);
    c.set(
      'clientAddress',
      clientAddress(c.req.raw.headers, () => getConnInfo(c).remote.address, deps.trustProxy),
    );
    c.header('X-Request-ID', requestId);
    const started = performance.now();
    await next();
    logger.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });

  app.use(
    secureHeaders({
      contentSecurityPolicy: undefined,
      crossOriginOpenerPolicy: 'same-origin-allow-popups',
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: 'same-origin',
      xFrameOptions: 'DENY',
      referrerPolicy: 'strict-origin-when-cross-origin',
      permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
    }),
  );

  // A CDN sits in front: an account's answers must never be stored and served to someone else.
  // Answers that are the same for everyone (the OpenAPI document) say so themselves.
  app.use(async (c, next) => {
    await next();
    const json = c.res.headers.get('content-type')?.startsWith('application/json');
    if (json && !c.res.headers.has('cache-control')) c.res.headers.set('Cache-Control', 'private, no-store');
  });

  app.route('/', healthRoutes(deps.isReady));
  app.route('/mailing-list', mailingListRoutes(deps.db, deps.limits?.mailingList ?? MAILING_LIST_RATE));

  const now = deps.now ?? (() => new Date());
  app.route('/auth', authRoutes(deps.db, deps.auth));
  app.route('/api/auth/user', profileRoutes(deps.db, deps.auth));
  app.route(
    '/api/auth',
    accountRoutes(deps.db, deps.auth, {
      billing: deps.billing,
      now,
      outboxDir: deps.outboxDir,
      mailer: deps.mailer,
      publicUrl: deps.publicUrl,
    }),
  );
  app.route(
    '/',
    billingRoutes(deps.db, deps.auth, { billing: deps.billing, publicUrl: deps.publicUrl, now }),
  );
  if (deps.operatorToken) app.route('/operator', operatorRoutes(deps.db, deps.operatorToken));
  app.route('/alerts', alertRoutes(deps.db));
  const queue = deps.scanning?.queue ?? NO_QUEUE;
  app.route(
    '/api/domains',
    domainRoutes(deps.db, deps.auth, { queue, resolvers: deps.scanning?.resolvers, now: deps.now }),
  );
  app.route('/api/webhooks', webhookRoutes(deps.db, deps.auth, deps.webhooks));
  app.route(
    '/api/dns-connections',
    dnsConnectionRoutes(deps.db, deps.auth, {
      ...deps.dnsConnections,
      queue,
      resolvers: deps.scanning?.resolvers,
      now: deps.now,
    }),
  );
  app.route('/api/cloud-accounts', cloudAccountRoutes(deps.db, deps.auth, deps.cloudAccounts ?? {}));
  app.route('/api/findings', findingRoutes(deps.db, deps.auth, now));
  app.route('/api/integrations', integrationRoutes(deps.db, deps.auth, deps.integrations, now));
  app.route('/api/keys', apiKeyRoutes(deps.db, deps.auth));
  app.route(
    '/api/workspaces',
    workspaceRoutes(
      deps.db,
      deps.auth,
      { mailer: deps.mailer, publicUrl: deps.publicUrl, billing: deps.billing },
      now,
    ),
  );
  app.route(
    '/api/invitations',
    invitationRoutes(deps.db, deps.auth, now, deps.limits?.invitationPreview ?? INVITATION_PREVIEW_RATE),
  );
  app.route('/api/v1', publicApiRoutes(deps.db, { queue, now, resolvers: deps.scanning?.resolvers }));
  app.route(
    '/scan',
    scanRoutes(deps.db, deps.auth, {
      queue,
      queueUp: deps.scanning?.queueUp ?? (() => false),
      now: deps.now,
      resolvers: deps.scanning?.resolvers,
      proofsOff: deps.scanning?.proofsOff,
    }),
  );

  app.notFound((c) => {
    const path = c.req.path;
    const isPage = ['GET', 'HEAD'].includes(c.req.method) && deps.site.find(path) !== undefined;
    // /auth/callback and /auth/signin are pages under an API prefix.
    if (
      (API_PREFIXES.some((prefix) => path.startsWith(prefix)) && !isPage) ||
      !['GET', 'HEAD'].includes(c.req.method)
    ) {
      return c.json(
        errorBody(404, 'NOT_FOUND', `No route for ${c.req.method} ${path}`, c.get('requestId')),
        404,
      );
    }
    const file = deps.site.find(path);
    const page = file ?? deps.site.notFound;
    if (!file) c.get('logger').warn({ path }, 'page not found');
    if (!page) return c.text('Not found', 404);
    const https =
      c.req.url.startsWith('https:') || (deps.trustProxy && c.req.header('x-forwarded-proto') === 'https');
    if (page.contentType.startsWith('text/html')) {
      c.header(
        'Content-Security-Policy',
        contentSecurityPolicy({
          ...deps.csp,
          scriptHashes: page.scriptHashes,
          styleHashes: page.styleHashes,
          upgradeInsecureRequests: Boolean(https),
        }),
      );
    }
    c.header('Content-Type', page.contentType);
    c.header('Cache-Control', page.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    c.header('Vary', 'Accept-Encoding');
    const gzip = page.gzip && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    if (gzip) c.header('Content-Encoding', 'gzip');
    const status = file ? 200 : 404;
    if (c.req.method === 'HEAD') return c.body(null, status);
    return c.body(new Uint8Array((gzip && page.gzip) || page.body), status);
  });

  app.onError((error, c) => {
    const requestId = c.get('requestId');
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      const body = errorBody(error.status, error.code, error.message, requestId);
      return c.json(error.details ? { ...body, details: error.details } : body, error.status);
    }
    if (error instanceof ServiceError) {
      const status = REFUSAL_STATUS[error.refusal];
      const body = errorBody(status, error.code, error.message, requestId);
      return c.json(error.details ? { ...body, details: error.details } : body, status);
    }
    if (isDatabaseUnavailable(error)) {
      // Retryable: the browser's request layer tries again, and the database is usually back in seconds.
      deps.outage?.failed(error, 'request');
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return c.json(
        errorBody(503, 'SERVICE_UNAVAILABLE', REFUSALS.SERVICE_UNAVAILABLE.message, requestId),
        503,
      );
    }
    (c.get('logger') ?? deps.logger).error({ err: error, path: c.req.path }, 'unhandled error');
    return c.json(errorBody(500, 'INTERNAL_ERROR', REFUSALS.INTERNAL_ERROR.message, requestId), 500);
  });

  return app;
}

function errorBody(statusCode: number, code: RefusalCode, error: string, requestId?: string): ApiErrorBody {
  return { error, code, statusCode, requestId };
}

function clientAddress(
  headers: Headers,
  socketAddress: () => string | undefined,
  trustProxy?: boolean,
): string {
  if (trustProxy) {
    // The right-most entry is the one our proxy appended; everything left of it the client wrote.
    const forwarded = headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return socketAddress() ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return 'unknown';
  }
}

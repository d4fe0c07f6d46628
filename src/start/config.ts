import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { REAP_INTERVAL_MS, STALE_HEARTBEAT_MS } from '../model/constants.ts';
import { validateFirebaseConfig } from '../model/firebase-config.ts';
import { LARGEST_PLAN, PLAN_IDS, PLANS, type PlanId } from '../model/plans.ts';
import { proofEnvShape, refineProofEnv } from '../scanner/proof/settings.ts';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => ['true', '1', 'yes'].includes(v));

const FIREBASE_VARS = [
  ['PUBLIC_FIREBASE_API_KEY', 'apiKey'],
  ['PUBLIC_FIREBASE_AUTH_DOMAIN', 'authDomain'],
  ['PUBLIC_FIREBASE_PROJECT_ID', 'projectId'],
  ['PUBLIC_FIREBASE_MESSAGING_SENDER_ID', 'messagingSenderId'],
  ['PUBLIC_FIREBASE_APP_ID', 'appId'],
] as const;

/** Where the embedded database, the outbox and the operator's files live unless DATA_DIR says. */
export const DEFAULT_DATA_DIR = './data';

/** Every environment variable the server reads, with its default. The README's table mirrors it. */
const envSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  // Unset by default: `production` is a promise that the deployment is public (see authExposure).
  NODE_ENV: z.enum(['production', 'development', 'test']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanFlag.default(false),
  PUBLIC_API_BASE: z.url({ error: 'must be an absolute URL' }).optional(),
  // Firebase web configuration of a real project; without it `serve` runs the Auth Emulator.
  PUBLIC_FIREBASE_API_KEY: z.string().optional(),
  PUBLIC_FIREBASE_AUTH_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as my-project.firebaseapp.com')
    .optional(),
  PUBLIC_FIREBASE_PROJECT_ID: z.string().optional(),
  PUBLIC_FIREBASE_MESSAGING_SENDER_ID: z.string().optional(),
  PUBLIC_FIREBASE_APP_ID: z.string().optional(),
  FIREBASE_AUTH_EMULATOR_HOST: z
    .string()
    .regex(/^[\w.-]+:\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:9099')
    .optional(),
  // Seconds a verified ID token is taken again without asking Firebase whether the account is still
  // enabled (src/server/auth/verifier.ts says what that trades); 0 asks on every request, which
  // puts a round trip to Google in every API call.
  AUTH_TOKEN_CACHE_SECONDS: z.coerce.number({ error: 'must be a number' }).int().min(0).max(300).default(30),
  AUTH_EMULATOR_PORT: z.coerce.number({ error: 'must be a number' }).int().min(1).max(65533).default(9099),
  // The scan engine's servers (DESIGN.md, Configuration): the system resolvers and public CT/RDAP by default.
  SCAN_RESOLVERS: z
    .string()
    .regex(
      /^\s*[\w.:[\]-]+(\s*,\s*[\w.:[\]-]+)*\s*$/,
      'must be a comma-separated list of host or host:port, e.g. 1.1.1.1,8.8.8.8:53',
    )
    .transform((v) => v.split(',').map((s) => s.trim()))
    .optional(),
  CT_URL: z.url({ error: 'must be an absolute URL' }).optional(),
  CERTSPOTTER_URL: z.url({ error: 'must be an absolute URL' }).optional(),
  RDAP_URL: z.url({ error: 'must be an absolute URL' }).optional(),
  // Where integrations reach their services; tests point them at loopback stand-ins.
  PAGERDUTY_EVENTS_URL: z.url({ error: 'must be an absolute URL' }).default('https://events.pagerduty.com'),
  GITHUB_API_URL: z.url({ error: 'must be an absolute URL' }).default('https://api.github.com'),
  LINEAR_API_URL: z.url({ error: 'must be an absolute URL' }).default('https://api.linear.app'),
  // Lets the engine connect to loopback and private addresses: for local test fixtures only.
  SCAN_ALLOW_PRIVATE: booleanFlag.default(false),
  // The reaper of scans whose worker died (src/core/scans/reaper.ts). A running scan writes a
  // heartbeat every second, so a few seconds of silence already mean something; tests use that.
  SCAN_STALE_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(5)
    .default(STALE_HEARTBEAT_MS / 1000),
  SCAN_REAP_INTERVAL_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .default(REAP_INTERVAL_MS / 1000),
  // E-mail alerts: SMTP when set, else .eml files in DATA_DIR/outbox.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('DangleWatch <alerts@danglewatch.localhost>'),
  // Where links in e-mails point; the server's own address by default.
  PUBLIC_URL: z.url({ error: 'must be an absolute URL' }).optional(),
  // Billing through Stripe: all three for payments; without the secret key the plan tab says so.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_\w+$/, 'must be a Stripe secret or restricted key (sk_… or rk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must be a Stripe signing secret (whsec_…)')
    .optional(),
  STRIPE_PRICES: z
    .string()
    .transform((value, ctx) => parsePrices(value, ctx))
    .optional(),
  // The plan every workspace has on a server without billing; the largest plan by default. A server
  // that bills starts every workspace on Free, so there it may only say free.
  DEFAULT_PLAN: z.enum(PLAN_IDS, { error: `must be one of ${PLAN_IDS.join(', ')}` }).optional(),
  // A Stripe-compatible API elsewhere (a local mock); Stripe itself by default.
  STRIPE_API_URL: z.url({ error: 'must be an absolute URL' }).optional(),
  // Encrypts DNS providers' credentials at rest (AES-256-GCM): 32 bytes, base64 or hex. Without it
  // the embedded default keeps one in DATA_DIR/secrets.key; a PostgreSQL deployment must set it.
  SECRETS_KEY: z
    .string()
    .regex(
      /^([0-9a-f]{64}|[A-Za-z0-9+/]{43}=)$/i,
      'must be 32 bytes as 64 hex digits or 44 base64 characters',
    )
    .optional(),
  // How often each connected DNS zone is read again.
  ZONE_SYNC_MINUTES: z.coerce.number({ error: 'must be a number' }).int().min(1).max(1440).default(15),
  // How often each connected cloud account's addresses and resources are read again.
  CLOUD_SYNC_MINUTES: z.coerce.number({ error: 'must be a number' }).int().min(1).max(1440).default(15),
  // The clouds' address ranges: a JSON file as `danglewatch ranges update` writes it; the bundled,
  // dated copy when unset.
  CLOUD_RANGES_FILE: z.string().min(1).optional(),
  // The fingerprint catalogue: a JSON file as `danglewatch fingerprints update` writes it; the
  // bundled, dated catalogue when unset and DATA_DIR/fingerprints.json does not exist.
  FINGERPRINTS_FILE: z.string().min(1).optional(),
  // For a demo on a network: the emulator signs anyone in as anyone, so this must be said out loud.
  ALLOW_AUTH_EMULATOR_ON_NETWORK: booleanFlag.default(false),
  // The operator's probe credentials (availability checks only) and the providers' base URLs.
  ...proofEnvShape,
});

/**
 * `intro=price_…,solo=price_…`: the Stripe price of each plan sold. Each must name a paid plan of
 * the catalogue; a plan without a price cannot be bought on this server.
 */
function parsePrices(value: string, ctx: z.RefinementCtx): Partial<Record<PlanId, string>> {
  const prices: Partial<Record<PlanId, string>> = {};
  for (const pair of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [plan = '', price = ''] = pair.split('=').map((s) => s.trim());
    const known = PLANS.find((p) => p.id === plan);
    if (!known || known.priceCents === 0 || !/^price_\w+$/.test(price)) {
      ctx.addIssue({
        code: 'custom',
        message: `'${pair}' must be <paid plan>=price_…, the plan one of ${PLANS.filter(
          (p) => p.priceCents > 0,
        )
          .map((p) => p.id)
          .join(', ')}`,
      });
      return z.NEVER;
    }
    prices[known.id] = price;
  }
  return prices;
}

export type Config = z.infer<typeof envSchema> & {
  dataDir: string;
  /** The plan every workspace has, null where each has its own (a server that bills, or free). */
  serverPlan: PlanId | null;
};

/** Parses the environment; a missing or malformed value throws a message that names it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = envSchema.superRefine(refineProofEnv).safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const parsed = result.data;
  if (parsed.SCAN_ALLOW_PRIVATE && parsed.NODE_ENV === 'production') {
    throw new Error(
      'Invalid configuration:\n  SCAN_ALLOW_PRIVATE: refused with NODE_ENV=production (it lets scans reach private addresses)',
    );
  }
  if (parsed.STRIPE_SECRET_KEY && parsed.DEFAULT_PLAN && parsed.DEFAULT_PLAN !== 'free') {
    throw new Error(
      `Invalid configuration:\n  DEFAULT_PLAN: refused with STRIPE_SECRET_KEY set: a server that bills starts every workspace on free, not ${parsed.DEFAULT_PLAN}; unset DEFAULT_PLAN, or give plans with 'danglewatch users set-plan'`,
    );
  }
  if (FIREBASE_VARS.some(([name]) => parsed[name] !== undefined)) {
    try {
      validateFirebaseConfig(
        Object.fromEntries(FIREBASE_VARS.map(([name, key]) => [key, parsed[name]])),
        (key) => FIREBASE_VARS.find(([, k]) => k === key)?.[0] ?? key,
      );
    } catch (error) {
      throw new Error(`Invalid configuration:\n  ${(error as Error).message}`);
    }
  }
  const defaultPlan = parsed.DEFAULT_PLAN ?? (parsed.STRIPE_SECRET_KEY ? 'free' : LARGEST_PLAN.id);
  return {
    ...parsed,
    dataDir: resolve(parsed.DATA_DIR),
    serverPlan: defaultPlan === 'free' ? null : defaultPlan,
  };
}

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
}

/** Signs in through the Auth Emulator: no real project configured, or an emulator named. */
function usesAuthEmulator(config: Config): boolean {
  return !config.PUBLIC_FIREBASE_API_KEY || config.FIREBASE_AUTH_EMULATOR_HOST !== undefined;
}

/**
 * The Auth Emulator accepts unsigned tokens, so whoever reaches the server can sign in as anyone.
 * 'refuse': emulator mode on a non-loopback address or in production; 'warn': the same, allowed by
 * ALLOW_AUTH_EMULATOR_ON_NETWORK; 'ok' otherwise.
 */
export function authExposure(config: Config): { verdict: 'ok' | 'warn' | 'refuse'; message?: string } {
  if (!usesAuthEmulator(config)) return { verdict: 'ok' };
  const reasons = [
    ...(isLoopback(config.HOST) ? [] : [`HOST is ${config.HOST}, not a loopback address`]),
    ...(config.NODE_ENV === 'production' ? ['NODE_ENV is production'] : []),
  ];
  if (reasons.length === 0) return { verdict: 'ok' };
  const risk = `sign-in runs on the Firebase Auth Emulator, which lets anyone sign in as any user, and ${reasons.join(' and ')}`;
  if (config.ALLOW_AUTH_EMULATOR_ON_NETWORK) {
    return { verdict: 'warn', message: `INSECURE: ${risk} (allowed by ALLOW_AUTH_EMULATOR_ON_NETWORK)` };
  }
  return {
    verdict: 'refuse',
    message:
      `Refusing to start: ${risk}. Configure a real Firebase project (PUBLIC_FIREBASE_API_KEY, ` +
      'PUBLIC_FIREBASE_PROJECT_ID, PUBLIC_FIREBASE_MESSAGING_SENDER_ID, PUBLIC_FIREBASE_APP_ID and no ' +
      'FIREBASE_AUTH_EMULATOR_HOST), listen on 127.0.0.1, or set ALLOW_AUTH_EMULATOR_ON_NETWORK=true ' +
      'for a throwaway demo.',
  };
}

import { z } from 'zod';
import { PROOF_CREDENTIALS, type ProofCheckId } from '../../model/proof.ts';

/**
 * The operator's probe credentials and the providers' base URLs. The credentials are for
 * availability checks only: the AWS key should be allowed `elasticbeanstalk:CheckDNSAvailability`
 * and nothing else, the Azure application Reader on one subscription.
 */
export interface ProofSettings {
  aws?: { accessKeyId: string; secretAccessKey: string };
  /** Elastic Beanstalk's endpoint for every region (tests); AWS's own per region when absent. */
  awsElasticBeanstalkEndpoint?: string;
  azure?: { tenantId: string; clientId: string; clientSecret: string; subscriptionId: string };
  azureLoginUrl: string;
  azureManagementUrl: string;
  shopifyUrl: string;
  /** Per provider request. */
  timeoutMs: number;
  /** Checks in flight at once, across providers. */
  concurrency: number;
  /** Checks in flight to one provider. */
  perProvider: number;
  /** The longest Retry-After a check waits for before it answers "could not be checked". */
  maxRetryAfterMs: number;
}

export const PROOF_DEFAULTS = {
  azureLoginUrl: 'https://login.microsoftonline.com',
  azureManagementUrl: 'https://management.azure.com',
  shopifyUrl: 'https://app.shopify.com',
  timeoutMs: 5000,
  concurrency: 8,
  perProvider: 4,
  maxRetryAfterMs: 5000,
} as const;

const text = z.string().trim().min(1);
const base = z.url({ error: 'must be an absolute URL' }).transform((url) => url.replace(/\/+$/, ''));

/** The environment variables of the proof checks; all optional. */
export const proofEnvShape = {
  AWS_PROBE_ACCESS_KEY_ID: text.regex(/^[A-Z0-9]{16,128}$/, 'must be an AWS access key id').optional(),
  AWS_PROBE_SECRET_ACCESS_KEY: text.optional(),
  AWS_ELASTICBEANSTALK_ENDPOINT: base.optional(),
  AZURE_PROBE_TENANT_ID: text.optional(),
  AZURE_PROBE_CLIENT_ID: text.optional(),
  AZURE_PROBE_CLIENT_SECRET: text.optional(),
  AZURE_PROBE_SUBSCRIPTION_ID: text.optional(),
  AZURE_LOGIN_URL: base.optional(),
  AZURE_MANAGEMENT_URL: base.optional(),
  SHOPIFY_SIGNUP_URL: base.optional(),
};

type ProofEnvInput = { [K in keyof typeof proofEnvShape]?: z.infer<(typeof proofEnvShape)[K]> };

/** Half a credential is refused: the check would fail at every scan instead of once, at start-up. */
export function refineProofEnv(env: ProofEnvInput, ctx: z.RefinementCtx) {
  const aws = [env.AWS_PROBE_ACCESS_KEY_ID, env.AWS_PROBE_SECRET_ACCESS_KEY];
  if (aws.some(Boolean) && !aws.every(Boolean))
    ctx.addIssue({
      code: 'custom',
      path: [env.AWS_PROBE_ACCESS_KEY_ID ? 'AWS_PROBE_SECRET_ACCESS_KEY' : 'AWS_PROBE_ACCESS_KEY_ID'],
      message: 'the AWS probe key needs both its id and its secret',
    });
  const azure = [
    ['AZURE_PROBE_TENANT_ID', env.AZURE_PROBE_TENANT_ID],
    ['AZURE_PROBE_CLIENT_ID', env.AZURE_PROBE_CLIENT_ID],
    ['AZURE_PROBE_CLIENT_SECRET', env.AZURE_PROBE_CLIENT_SECRET],
    ['AZURE_PROBE_SUBSCRIPTION_ID', env.AZURE_PROBE_SUBSCRIPTION_ID],
  ] as const;
  if (azure.some(([, v]) => v) && !azure.every(([, v]) => v))
    for (const [name, value] of azure)
      if (!value)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'the Azure probe application needs its tenant, client id, secret and subscription',
        });
}

export const proofEnvSchema = z.object(proofEnvShape).superRefine(refineProofEnv);
export type ProofEnv = ProofEnvInput;

/** The settings from parsed environment variables. */
export function proofSettings(env: ProofEnv = {}): ProofSettings {
  return {
    ...PROOF_DEFAULTS,
    ...(env.AWS_PROBE_ACCESS_KEY_ID && env.AWS_PROBE_SECRET_ACCESS_KEY
      ? {
          aws: { accessKeyId: env.AWS_PROBE_ACCESS_KEY_ID, secretAccessKey: env.AWS_PROBE_SECRET_ACCESS_KEY },
        }
      : {}),
    ...(env.AWS_ELASTICBEANSTALK_ENDPOINT
      ? { awsElasticBeanstalkEndpoint: env.AWS_ELASTICBEANSTALK_ENDPOINT }
      : {}),
    ...(env.AZURE_PROBE_TENANT_ID &&
    env.AZURE_PROBE_CLIENT_ID &&
    env.AZURE_PROBE_CLIENT_SECRET &&
    env.AZURE_PROBE_SUBSCRIPTION_ID
      ? {
          azure: {
            tenantId: env.AZURE_PROBE_TENANT_ID,
            clientId: env.AZURE_PROBE_CLIENT_ID,
            clientSecret: env.AZURE_PROBE_CLIENT_SECRET,
            subscriptionId: env.AZURE_PROBE_SUBSCRIPTION_ID,
          },
        }
      : {}),
    ...(env.AZURE_LOGIN_URL ? { azureLoginUrl: env.AZURE_LOGIN_URL } : {}),
    ...(env.AZURE_MANAGEMENT_URL ? { azureManagementUrl: env.AZURE_MANAGEMENT_URL } : {}),
    ...(env.SHOPIFY_SIGNUP_URL ? { shopifyUrl: env.SHOPIFY_SIGNUP_URL } : {}),
  };
}

/**
 * Reads the proof variables of an environment (the CLI's): empty values count as unset, and a
 * malformed one throws a message that names it.
 */
export function proofSettingsFromEnv(env: NodeJS.ProcessEnv): ProofSettings {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = proofEnvSchema.safeParse(present);
  if (!parsed.success)
    throw new Error(
      `Invalid configuration:\n  ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ')}`,
    );
  return proofSettings(parsed.data);
}

/** The checks turned off for want of credentials: their findings are at most likely. */
export function proofsOff(settings: Pick<ProofSettings, 'aws' | 'azure'> | undefined): ProofCheckId[] {
  return [
    ...(settings?.aws ? [] : PROOF_CREDENTIALS.aws),
    ...(settings?.azure ? [] : PROOF_CREDENTIALS.azure),
  ];
}

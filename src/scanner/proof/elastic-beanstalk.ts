import { CheckDNSAvailabilityCommand, ElasticBeanstalkClient } from '@aws-sdk/client-elastic-beanstalk';
import { retryAfterMs, Throttled } from '../../connectors/proof/api.ts';
import type { Detected } from '../types.ts';
import { sleep } from '../util/limit.ts';
import { type CheckRun, free, type ProofCheck, type Subject, taken, unknown } from './check.ts';

/** `<prefix>.<region>.elasticbeanstalk.com`; `eba-` names are unique and never reach a check. */
const ENVIRONMENT = /^([a-z0-9][a-z0-9-]{2,62})\.([a-z]{2}(?:-gov)?-[a-z]+-\d)\.elasticbeanstalk\.com$/;

/** AWS's throttling error codes in the Query API. */
const THROTTLING = new Set([
  'Throttling',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
]);

/**
 * Elastic Beanstalk's `CheckDNSAvailability` in the region of the record, signed (SigV4) with
 * the operator's probe key: `Available: true` means anyone can create an environment with this
 * CNAME prefix there now.
 */
export const elasticBeanstalkCheck: ProofCheck = {
  id: 'elastic-beanstalk',
  provider: 'aws',
  needs: 'aws',
  subject(finding: Detected): Subject | undefined {
    const m = ENVIRONMENT.exec(finding.target);
    return m ? { name: m[1] as string, region: m[2] as string } : undefined;
  },
  where: (subject, { settings }) => `${subject.region} ${settings.awsElasticBeanstalkEndpoint ?? 'aws'}`,
  async ask(subject, { settings, signal }: CheckRun) {
    if (!settings.aws) return unknown('no AWS probe key configured');
    const client = new ElasticBeanstalkClient({
      region: subject.region as string,
      credentials: settings.aws,
      maxAttempts: 1,
      ...(settings.awsElasticBeanstalkEndpoint ? { endpoint: settings.awsElasticBeanstalkEndpoint } : {}),
    });
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const answer = await client.send(new CheckDNSAvailabilityCommand({ CNAMEPrefix: subject.name }), {
            abortSignal: AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)]),
          });
          if (answer.Available === true)
            return free(subject.name, `Available: true (${answer.FullyQualifiedCNAME ?? subject.name})`);
          if (answer.Available === false) return taken(subject.name, 'Available: false');
          return unknown('Elastic Beanstalk answered without Available');
        } catch (error) {
          const e = error as AwsError;
          if (!(THROTTLING.has(e.name ?? '') || e.$metadata?.httpStatusCode === 429)) return awsFailure(e);
          const wait = retryAfterMs(e.$response?.headers?.['retry-after']);
          if (attempt > 0 || wait > settings.maxRetryAfterMs) throw new Throttled('AWS', wait);
          await sleep(wait, signal);
        }
      }
    } finally {
      client.destroy();
    }
  },
};

interface AwsError {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string> };
}

function awsFailure(e: AwsError) {
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return unknown('AWS did not answer in time');
  const status = e.$metadata?.httpStatusCode;
  return unknown(`AWS answered ${e.name ?? 'an error'}${status ? ` (${status})` : ''}`);
}

import { azureChecks } from './azure.ts';
import type { ProofCheck } from './check.ts';
import { elasticBeanstalkCheck } from './elastic-beanstalk.ts';
import { fastlyCheck } from './fastly.ts';
import { s3Check } from './s3.ts';
import { shopifyCheck } from './shopify.ts';

/** Every check the proof phase may run; the first whose subject matches a finding answers for it. */
export const PROOF_CHECK_TABLE: readonly ProofCheck[] = [
  s3Check,
  elasticBeanstalkCheck,
  ...azureChecks,
  fastlyCheck,
  shopifyCheck,
];
